/** Property tests: chunking never changes the counts, and the fast path agrees with JSON.parse. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  assistant,
  ENVELOPE,
  hasEscapedKey,
  progress,
  text,
  toolResult,
  toolUse,
  user,
} from '../../../../test/support/transcript-lines.ts'
import { referenceAnalysis } from '../../../../test/support/transcript-reference.ts'
import { analyzeTranscriptBytes, createTranscriptAnalyzer } from './transcript-analyzer.ts'

const sampleTranscript = [
  user('Build the parser; I decided on bytes.'),
  assistant('m1', [text('Going with a byte walker instead of JSON.parse.')], { output_tokens: 3 }),
  assistant('m1', [toolUse('t1', 'Write', { file_path: 'a.ts', content: 'const a = "é\\n"' })], {
    output_tokens: 30,
  }),
  progress(JSON.parse(assistant('m9', [toolUse('t9', 'Edit')]))),
  toolResult('t1', 'written "ok" \\ done'),
  '{"broken": ',
  assistant('m2', [toolUse('t2', 'Bash', { command: 'somnus tasks create parser' })]),
  toolResult('t2', 'Error: nope', true),
  user('<command-name>/compact</command-name>'),
].join('\n')

describe('chunking', () => {
  it('gives the same counts for any split of the same bytes', () => {
    const bytes = Buffer.from(sampleTranscript)
    const whole = analyzeTranscriptBytes(bytes)
    expect(whole).toEqual(referenceAnalysis(sampleTranscript))
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        (cuts) => {
          const analyzer = createTranscriptAnalyzer()
          let start = 0
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            analyzer.push(bytes.subarray(start, cut))
            start = cut
          }
          analyzer.push(bytes.subarray(start))
          expect(analyzer.finish()).toEqual(whole)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('agreement with JSON.parse', () => {
  const block = fc.oneof(
    fc.record({ type: fc.constant('text'), text: fc.string() }),
    fc.record({
      type: fc.constant('tool_use'),
      id: fc.constantFrom('t1', 't2', 't3'),
      name: fc.constantFrom('Write', 'Edit', 'Bash', 'Read'),
      input: fc.jsonValue(),
    }),
    fc.record({
      type: fc.constant('tool_result'),
      tool_use_id: fc.string(),
      content: fc.jsonValue(),
      is_error: fc.boolean(),
    }),
    fc.record({ type: fc.constantFrom('thinking', 'image'), data: fc.string() }),
    fc.jsonValue(),
  )
  const record = fc.record(
    {
      type: fc.constantFrom('user', 'assistant', 'progress', 'system'),
      isMeta: fc.boolean(),
      isSidechain: fc.boolean(),
      timestamp: fc.constantFrom('2026-02-12T16:00:01.000Z', '2026-02-12T16:00:09.000Z', 42),
      message: fc.record(
        {
          id: fc.constantFrom('m1', 'm2', 7),
          content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 })),
          usage: fc.record({
            input_tokens: fc.nat(),
            output_tokens: fc.oneof(fc.nat(), fc.double()),
          }),
        },
        { requiredKeys: [] },
      ),
      data: fc.jsonValue(),
    },
    { requiredKeys: [] },
  )
  /** Claude Code's own key order: envelope, then message before type for assistant records. */
  const claudeOrdered = record.map(({ message, type, ...rest }) => {
    const envelope = { ...ENVELOPE, cwd: '/p/a,b' }
    return type === 'assistant'
      ? { ...envelope, ...rest, message, type, uuid: 'u' }
      : { ...envelope, type, ...rest, message, uuid: 'u', toolUseResult: { stdout: 'big' } }
  })
  const line = fc.oneof(
    { weight: 4, arbitrary: record.map((value) => JSON.stringify(value)) },
    { weight: 4, arbitrary: claudeOrdered.map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: record.map((value) => JSON.stringify(value, null, 1).replaceAll('\n', ' ')),
    },
    { weight: 1, arbitrary: fc.string() },
  )

  it('counts generated records exactly as the JSON.parse reference does', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom(undefined, '2026-02-12T16:00:05Z'),
        (lines, since) => {
          const text = lines.map((value) => value.replaceAll('\n', ' ')).join('\n')
          const options = since === undefined ? {} : { since }
          expect(analyzeTranscriptBytes(Buffer.from(text), options)).toEqual(
            referenceAnalysis(text, since),
          )
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('walks every compact record without falling back to JSON.parse', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(record, claudeOrdered), { maxLength: 8 }), (records) => {
        fc.pre(!records.some(hasEscapedKey)) // an escaped key could spell a key that matters
        const analyzer = createTranscriptAnalyzer()
        analyzer.push(Buffer.from(`${records.map((value) => JSON.stringify(value)).join('\n')}\n`))
        analyzer.finish()
        expect(analyzer.structuralLines).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
})
