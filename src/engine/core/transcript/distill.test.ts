import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'
import { distillTranscriptText } from './distill.ts'

let clock = Date.parse('2026-02-12T16:00:00.000Z')
function stamp(): string {
  clock += 1000
  return new Date(clock).toISOString()
}

const assistant = (...content: unknown[]) =>
  JSON.stringify({
    type: 'assistant',
    message: { id: `m${clock}`, role: 'assistant', content },
    timestamp: stamp(),
  })
const user = (content: unknown, extra: object = {}) =>
  JSON.stringify({ type: 'user', message: { role: 'user', content }, timestamp: stamp(), ...extra })
const tool = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input })
const result = (id: string, content: unknown, isError = false) =>
  user([{ tool_use_id: id, type: 'tool_result', content, is_error: isError }], {
    toolUseResult: 'x',
  })

const distill = (lines: string[], options: { since?: string; full?: boolean } = {}) =>
  distillTranscriptText(lines.join('\n'), { sessionId: 'abc', ...options })

/** The lines of one `### title` section ('' when the section is absent). */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`### ${title}\n`)
  if (start === -1) return ''
  const next = markdown.indexOf('\n### ', start + 4)
  return markdown.slice(start, next === -1 ? undefined : next)
}

describe('distillTranscriptText', () => {
  it('keeps prompts, conclusions, changes, errors and bookmarks in their sections', () => {
    const markdown = distill([
      user('Please add a login page'),
      assistant(
        { type: 'text', text: 'ok' },
        { type: 'text', text: 'I will use a form with server-side validation.' },
      ),
      assistant(tool('t1', 'Read', { file_path: 'src/app.ts' })),
      result('t1', 'const secret = "file contents"'),
      assistant(tool('t2', 'Write', { file_path: 'src/login.ts', content: 'line 1\nline 2\n' })),
      assistant(
        tool('t3', 'Edit', { file_path: 'src/app.ts', old_string: 'a()', new_string: 'b()' }),
      ),
      assistant(tool('t4', 'Bash', { command: 'npm install zod' })),
      assistant(tool('t5', 'Bash', { command: 'ls -la' })),
      assistant(tool('t6', 'Bash', { command: 'npm test' })),
      result('t6', 'FAIL login.test.ts: expected 200', true),
      assistant(
        tool('t7', 'Bash', { command: 'somnus bookmark add "login uses server validation" -s 2' }),
      ),
      assistant(
        tool('t8', 'Task', {
          subagent_type: 'Explore',
          description: 'Find auth code',
          prompt: 'Find every place that checks a session cookie.',
        }),
      ),
    ])
    expect(markdown.startsWith('## Session abc -- Distilled Transcript\n')).toBe(true)
    expect(section(markdown, 'User Messages')).toBe(
      '### User Messages\n- "Please add a login page"\n',
    )
    const decisions = section(markdown, 'Agent Decisions & Reasoning')
    expect(decisions).toContain('- I will use a form with server-side validation.')
    expect(decisions).not.toContain('- ok')
    expect(decisions).toContain('[subagent-task] Explore: Find auth code -- Find every place')
    const changes = section(markdown, 'Code Changes')
    expect(changes).toContain('- WRITE src/login.ts (2 lines)\n  ```\n  line 1\n  line 2')
    expect(changes).toContain(
      '- EDIT src/app.ts\n  old:\n  ```\n  a()\n  ```\n  new:\n  ```\n  b()',
    )
    expect(changes).toContain('- BASH `npm install zod`')
    expect(changes).not.toContain('ls -la')
    expect(changes).not.toContain('somnus bookmark')
    expect(section(markdown, 'Errors & Issues')).toContain(
      '- **Bash** `npm test` failed:\n  ```\n  FAIL login.test.ts',
    )
    expect(section(markdown, 'Bookmarks')).toContain(
      'somnus bookmark add "login uses server validation"',
    )
    expect(markdown).not.toContain('file contents')
    expect(markdown).not.toContain('Read')
  })

  it('omits empty sections and says when nothing is left', () => {
    const markdown = distill([
      assistant(tool('t1', 'Grep', { pattern: 'x' })),
      result('t1', 'hits'),
    ])
    expect(markdown).not.toContain('###')
    expect(markdown).toContain('Nothing to distill')
  })

  it('never lists tool output, meta, compact summaries or commands as user messages', () => {
    const markdown = distill([
      result('t1', 'tool output text'),
      user('<system-reminder>x</system-reminder>', { isMeta: true }),
      user('This session is being continued', { isCompactSummary: true }),
      user('<command-name>/clear</command-name>'),
      user([
        { type: 'text', text: 'typed in blocks' },
        { type: 'image', source: {} },
      ]),
    ])
    expect(section(markdown, 'User Messages')).toBe(
      '### User Messages\n- "typed in blocks" [1 image]\n',
    )
  })

  it('leaves out records at or before `since` but still names the tool of a later error', () => {
    clock = Date.parse('2026-02-12T16:00:00.000Z')
    const markdown = distill(
      [
        user('old request'), // :01
        assistant(tool('t1', 'Bash', { command: 'git push' })), // :02
        result('t1', 'rejected', true), // :03
        user('new request'), // :04
      ],
      { since: '2026-02-12T16:00:02.000Z' },
    )
    expect(markdown).toContain('(since 2026-02-12T16:00:02.000Z)')
    expect(markdown).not.toContain('old request')
    expect(section(markdown, 'Code Changes')).toBe('')
    expect(section(markdown, 'Errors & Issues')).toContain('**Bash** `git push` failed')
    expect(markdown).toContain('"new request"')
  })

  it('shortens long files and edits with a marker unless --full', () => {
    const content = Array.from({ length: 100 }, (_, index) => `line ${index}`).join('\n')
    const lines = [
      assistant(tool('t1', 'Write', { file_path: 'big.ts', content })),
      assistant(
        tool('t2', 'MultiEdit', {
          file_path: 'm.ts',
          edits: [{ old_string: 'a', new_string: 'b' }],
        }),
      ),
    ]
    const short = distill(lines)
    expect(short).toContain('WRITE big.ts (100 lines)')
    expect(short).toContain('line 39\n  ```\n  ... [60 more lines; --full shows all]')
    expect(short).not.toContain('line 40')
    expect(short).toContain('- MULTIEDIT m.ts (1 edits)')
    const full = distill(lines, { full: true })
    expect(full).toContain('line 99')
    expect(full).not.toContain('--full shows all')
  })

  it('fences code that itself holds backticks', () => {
    const markdown = distill([
      assistant(tool('t1', 'Write', { file_path: 'a.md', content: '```js\nx\n```' })),
    ])
    expect(markdown).toContain('  ````\n  ```js')
  })
})

type ToolResult = { type: string; is_error?: boolean; content?: unknown }

/** Every tool_result block of the transcript's user records, read plainly. */
function toolResults(text: string): ToolResult[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { type?: string; message?: { content?: unknown } })
    .filter((record) => record.type === 'user' && Array.isArray(record.message?.content))
    .flatMap((record) => record.message?.content as ToolResult[])
    .filter((block) => block.type === 'tool_result')
}

/** The three full dev sessions (the other files are short samples without commits). */
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f-]+\.jsonl$/

describe.skipIf(!HAS_SHARED)('distilling real transcripts', () => {
  // A skipped describe still runs its body to collect tests: read the folder only when it is there.
  const mains = HAS_SHARED
    ? readdirSync(TRANSCRIPTS_DIR).filter((name) => name.endsWith('.jsonl'))
    : []

  it('finds the real main transcripts', () => {
    expect(mains.length).toBeGreaterThanOrEqual(3)
  })

  for (const name of mains) {
    it(`${name}: no tool output under User Messages, every is_error result under Errors`, () => {
      const text = readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8')
      const results = toolResults(text)
      const errors = results.filter((block) => block.is_error === true)
      const outputs = results
        .map((block) => (typeof block.content === 'string' ? block.content : ''))
        .map((content) => content.trim().split('\n')[0] as string)
        .filter((line) => line.length > 30)

      const markdown = distillTranscriptText(text, { sessionId: name, full: true })
      const userMessages = section(markdown, 'User Messages')
      expect(userMessages).not.toBe('')
      for (const output of outputs) expect(userMessages).not.toContain(output)
      const errorSection = section(markdown, 'Errors & Issues')
      const listed = errorSection.split('\n').filter((line) => line.startsWith('- ')).length
      expect(listed).toBe(errors.length)
      for (const error of errors) {
        const first = (typeof error.content === 'string' ? error.content : '').split(
          '\n',
        )[0] as string
        expect(errorSection).toContain(first)
      }
      expect(errorSection).not.toContain('an earlier tool call')
    })

    if (!SESSION_FILE.test(name)) continue

    it(`${name}: read-only git commands are not code changes, every commit is`, () => {
      const text = readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8')
      const changes = section(distillTranscriptText(text, { sessionId: name }), 'Code Changes')
      expect(changes).not.toMatch(/- BASH `(?:cd \S+ && )?git (?:status|log|diff|show)\b/)
      const commits = (text.match(/"command":"[^"]*?git commit/g) ?? []).length
      expect(commits).toBeGreaterThan(0)
      expect((changes.match(/git commit/g) ?? []).length).toBeGreaterThanOrEqual(commits)
    })

    it(`${name}: no decision opens with narration, no failure is shown by its exit code`, () => {
      const text = readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8')
      const markdown = distillTranscriptText(text, { sessionId: name })
      const decisions = section(markdown, 'Agent Decisions & Reasoning')
        .split('\n')
        .filter((line) => line.startsWith('- '))
      expect(decisions.length).toBeGreaterThan(0)
      for (const decision of decisions)
        expect(decision).not.toMatch(/^- (?:\[thinking\] )?(?:Now )?(?:let me|let's)\b/i)
      // The line under a bare `failed:` is the first line of the output, shown because it is the error.
      const failures = section(markdown, 'Errors & Issues').match(/failed:.*\n.*\n.*/g) ?? []
      expect(failures.length).toBeGreaterThan(0)
      for (const failure of failures) expect(failure).not.toMatch(/failed:\n.*\n\s*Exit code \d+$/)
    })
  }
})
