import { describe, expect, it } from 'vitest'
import {
  assistant,
  progress,
  setTranscriptClock,
  text,
  toolResult,
  toolUse,
  user,
} from '../../../../test/support/transcript-lines.ts'
import { referenceAnalysis } from '../../../../test/support/transcript-reference.ts'
import { SomnusError } from '../errors.ts'
import { analyzeTranscriptBytes, createTranscriptAnalyzer } from './transcript-analyzer.ts'

const analyze = (lines: string[], since?: string) =>
  analyzeTranscriptBytes(Buffer.from(lines.join('\n')), since === undefined ? {} : { since })

/** The engine's answer, after checking that it equals the plain JSON.parse reference. */
function checked(lines: string[], since?: string) {
  const result = analyze(lines, since)
  expect(result).toEqual(referenceAnalysis(lines.join('\n'), since))
  return result
}

describe('analyzeTranscriptBytes', () => {
  it('counts tool_use blocks of assistant records, per tool, with changes', () => {
    const result = checked([
      assistant('m1', [
        toolUse('t1', 'Write', { file_path: 'a.ts', content: 'x' }),
        toolUse('t2', 'Edit'),
      ]),
      assistant('m2', [
        toolUse('t3', 'Bash', { command: 'ls' }),
        toolUse('t4', 'MultiEdit'),
        toolUse('t5', 'NotebookEdit'),
      ]),
      assistant('m3', [toolUse('t6', 'Read'), text('Done reading the file, all good.')]),
    ])
    expect(result.tool_count).toBe(6)
    expect(result.change_count).toBe(4)
    expect(result.tool_counts).toEqual({
      Bash: 1,
      Edit: 1,
      MultiEdit: 1,
      NotebookEdit: 1,
      Read: 1,
      Write: 1,
    })
    expect(result.assistant_messages).toBe(3)
  })

  it('counts a message split over records sharing message.id once, at its final usage', () => {
    const result = checked([
      assistant('m1', [text('Let me look.')], { output_tokens: 2 }),
      assistant('m1', [toolUse('t1', 'Bash')], { output_tokens: 9 }),
      assistant('m1', [toolUse('t2', 'Bash')], { output_tokens: 40 }),
      assistant('m2', [text('ok')], { input_tokens: 7, output_tokens: 1 }),
    ])
    expect(result.assistant_messages).toBe(2)
    expect(result.output_tokens).toBe(41)
    expect(result.input_tokens).toBe(10)
    expect(result.cache_creation_input_tokens).toBe(20)
    expect(result.cache_read_input_tokens).toBe(200)
    expect(result.novel_tokens).toBe(10 + 41 + 20)
  })

  it('sums usage in a fixed order, so totals past 2^53 round as the reference rounds them', () => {
    // Floating-point sums depend on their order; records of one message may sit apart.
    const huge = 157369695552231770000
    const withoutId = JSON.stringify({
      type: 'assistant',
      message: { usage: { input_tokens: 0, output_tokens: huge } },
    })
    const result = checked([
      assistant('m1', [], { input_tokens: 0, output_tokens: 1083097088 }),
      withoutId,
      assistant('m1', [], { input_tokens: 0, output_tokens: 1487732737 }),
    ])
    expect(result.output_tokens).toBe(1487732737 + huge)
  })

  it('counts each tool_use id once', () => {
    const result = checked([
      assistant('m1', [toolUse('t1', 'Edit')]),
      assistant('m1', [toolUse('t1', 'Edit')]),
    ])
    expect(result.tool_count).toBe(1)
    expect(result.change_count).toBe(1)
  })

  it('ignores tool_use blocks embedded in progress and other records', () => {
    const embedded = JSON.parse(assistant('m9', [toolUse('t9', 'Write')]))
    const result = checked([
      progress(embedded),
      JSON.stringify({
        type: 'attachment',
        attachment: { tools: [{ name: 'Write' }, { name: 'Edit' }] },
      }),
      JSON.stringify({ type: 'system', subtype: 'local_command', content: '"type":"assistant"' }),
    ])
    expect(result.tool_count).toBe(0)
    expect(result.assistant_messages).toBe(0)
  })

  it('counts tool results and errors, which are not human turns', () => {
    const result = checked([
      user('Please fix the build'),
      assistant('m1', [toolUse('t1', 'Bash')]),
      toolResult('t1', 'error: build failed', true),
      toolResult('t2', 'ok'),
    ])
    expect(result.tool_results).toBe(2)
    expect(result.tool_errors).toBe(1)
    expect(result.user_turns).toBe(1)
  })

  it('counts only prompts a person typed as user turns', () => {
    const result = checked([
      user('A real prompt'),
      user([
        text('A prompt in blocks'),
        { type: 'image', source: { type: 'base64', data: 'AAAA' } },
      ]),
      user([{ type: 'image', source: { type: 'base64', data: 'AAAA' } }]),
      user('<system-reminder>injected</system-reminder>', { isMeta: true }),
      user('This session is being continued from a previous conversation', {
        isCompactSummary: true,
      }),
      user('sub-agent prompt', { isSidechain: true }),
      user('<command-name>/clear</command-name>'),
      user('<command-message>x</command-message>\n<command-name>/x</command-name>'),
      user('<local-command-stdout>done</local-command-stdout>'),
      user('<task-notification>\n<task-id>b1</task-id>'),
      user([text('[Request interrupted by user for tool use]')]),
      user('   '),
    ])
    expect(result.user_turns).toBe(3)
  })

  it('leaves out records at or before `since`, on every axis', () => {
    setTranscriptClock('2026-02-12T16:00:00.000Z')
    const lines = [
      user('old prompt, decided to use X'), // :01
      assistant('m1', [toolUse('t1', 'Write'), text('I decided this.')]), // :02
      toolResult('t1', 'ok', true), // :03
      user('new prompt'), // :04
      assistant('m2', [toolUse('t2', 'Edit')]), // :05
    ]
    const result = checked(lines, '2026-02-12T16:00:03.000Z')
    expect(result).toMatchObject({ user_turns: 1, tool_count: 1, change_count: 1, tool_results: 0 })
    expect(result).toMatchObject({ tool_errors: 0, decision_markers: 0, assistant_messages: 1 })
    expect(result.first_timestamp).toBe('2026-02-12T16:00:04.000Z')
    expect(checked(lines, '2026-02-12T16:00:03Z').tool_count).toBe(1) // any ISO spelling
    expect(checked(lines, '2026-02-12T16:00:02.999Z').tool_results).toBe(1)
    expect(checked(lines, '2026-02-12T17:00:03.000+01:00').user_turns).toBe(1)
  })

  it('rejects a `since` that is not a date', () => {
    expect(() => createTranscriptAnalyzer({ since: 'yesterday' })).toThrow(SomnusError)
  })

  it('skips and counts unparsable lines, including a cut-off last line, without throwing', () => {
    const full = assistant('m2', [toolUse('t2', 'Write')])
    const result = checked([
      assistant('m1', [toolUse('t1', 'Edit')]),
      '{"type":"assistant","message":{"id":"x"',
      'not json at all',
      full.slice(0, full.length - 30),
    ])
    expect(result.unparsable_lines).toBe(3)
    expect(result.tool_count).toBe(1)
    expect(result.lines).toBe(4)
  })

  it('counts a record cut off in the middle of the file as unparsable, whatever its type', () => {
    const cut = (line: string) => line.slice(0, Math.floor(line.length * 0.7))
    const result = checked([
      cut(progress({ type: 'user' })),
      cut(toolResult('t1', 'output', true)),
      user('still counted'),
    ])
    expect(result).toMatchObject({ unparsable_lines: 2, tool_results: 0, user_turns: 1 })
  })

  it('does not count a cut-off user record whose tool result was already written', () => {
    const line = toolResult('t1', 'failed', true)
    const result = checked([line.slice(0, line.indexOf('"toolUseResult"') + 20)])
    expect(result).toMatchObject({ tool_results: 0, unparsable_lines: 1 })
  })

  it('ignores blank lines and accepts CRLF line ends', () => {
    const lines = ['', assistant('m1', [toolUse('t1', 'Bash')]), '   ', user('hi there')]
    const result = analyzeTranscriptBytes(Buffer.from(lines.join('\r\n')))
    expect(result).toMatchObject({ lines: 2, tool_count: 1, user_turns: 1, unparsable_lines: 0 })
  })

  it('reads JSON with spaces, escaped keys and escaped types the same as JSON.parse', () => {
    const spaced =
      '{ "type" : "assistant" , "message" : { "id" : "m1" , "content" : [ { "type" : "tool_use" , "id" : "t1" , "name" : "Write" , "input" : { } } ] } }'
    const escapedKey =
      '{"typ\\u0065":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t2","name":"Edit"}]}}'
    const escapedType =
      '{"type":"\\u0075ser","message":{"role":"user","content":"typed by a person"}}'
    const escapedBlock =
      '{"type":"assistant","message":{"id":"m3","content":[{"type":"tool\\u005fuse","id":"t3","name":"Bash"}]}}'
    const result = checked([spaced, escapedKey, escapedType, escapedBlock])
    expect(result).toMatchObject({ tool_count: 3, change_count: 2, user_turns: 1 })
  })

  it('measures assistant text in UTF-16 units after unescaping, and finds decision phrases', () => {
    const result = checked([
      assistant('m1', [
        text('Café "quoted" \n naïve 🙂'),
        text('I decided to switch. Actually, I was wrong; going with B instead of A.'),
      ]),
      user('No, that is wrong. Should have used the cache.'),
      toolResult('t1', 'decided actually wrong'),
    ])
    const decisive = 'I decided to switch. Actually, I was wrong; going with B instead of A.'
    expect(result.assistant_chars).toBe('Café "quoted" \n naïve 🙂'.length + decisive.length)
    expect(result.decision_markers).toBe(5 + 2)
  })

  it('collects task slugs from state file paths and task commands in tool inputs', () => {
    const result = checked([
      assistant('m1', [
        toolUse('t1', 'Edit', { file_path: '/p/_agent_context/state/auth-refactor.md' }),
        toolUse('t2', 'Bash', { command: 'npx somnus tasks log billing-v2 "did it"' }),
        toolUse('t3', 'Bash', { command: 'somnus tasks complete auth-refactor' }),
        toolUse('t4', 'Read', { file_path: '/p/_agent_context/state/.sleep.json' }),
        toolUse('t5', 'Bash', { command: 'echo somnus tasks list' }),
      ]),
    ])
    expect(result.task_slug_list).toEqual(['auth-refactor', 'billing-v2'])
    expect(result.task_slugs).toBe(2)
  })

  it('reports the first and last timestamps of counted records', () => {
    setTranscriptClock('2026-03-01T10:00:00.000Z')
    const result = checked([
      JSON.stringify({
        type: 'file-history-snapshot',
        snapshot: { timestamp: '2020-01-01T00:00:00.000Z' },
      }),
      user('start'),
      assistant('m1', [text('Working on it now.')]),
      progress({ type: 'user' }),
    ])
    expect(result.first_timestamp).toBe('2026-03-01T10:00:01.000Z')
    expect(result.last_timestamp).toBe('2026-03-01T10:00:02.000Z')
  })

  it('takes the byte-level path for compact records', () => {
    const analyzer = createTranscriptAnalyzer()
    analyzer.push(
      Buffer.from(
        `${[user('go'), assistant('m1', [toolUse('t1', 'Bash')]), toolResult('t1', 'x')].join('\n')}\n`,
      ),
    )
    analyzer.finish()
    expect(analyzer.structuralLines).toBe(0)
  })
})
