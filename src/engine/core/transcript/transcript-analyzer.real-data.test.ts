/** The analyzer on real Claude Code transcripts: equal to a plain JSON.parse of every line. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'
import { referenceAnalysis } from '../../../../test/support/transcript-reference.ts'
import { analyzeTranscriptBytes, createTranscriptAnalyzer } from './transcript-analyzer.ts'

const files = HAS_SHARED
  ? readdirSync(TRANSCRIPTS_DIR, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
  : []

/** A timestamp in the middle of the file's records, so `since` really splits it. */
function middleTimestamp(text: string): string {
  const stamps = [...text.matchAll(/"timestamp":"([^"]+)"/g)]
    .map((match) => match[1] as string)
    .sort()
  return stamps[Math.floor(stamps.length / 2)] as string
}

describe.skipIf(!HAS_SHARED)('real transcripts', () => {
  it('finds the main and sub-agent files', () => {
    expect(files.length).toBeGreaterThanOrEqual(12)
    expect(files.filter((name) => name.includes('/subagents/')).length).toBeGreaterThanOrEqual(6)
  })

  for (const name of files) {
    describe(name, () => {
      const bytes = readFileSync(join(TRANSCRIPTS_DIR, name))
      const text = bytes.toString('utf8')

      it('counts exactly what a JSON.parse of every line counts, on the fast path', () => {
        const analyzer = createTranscriptAnalyzer()
        analyzer.push(bytes)
        const result = analyzer.finish()
        expect(result).toEqual(referenceAnalysis(text))
        expect(analyzer.structuralLines).toBe(0)
        expect(result.unparsable_lines).toBe(0)
      })

      it('gives the same counts when read in small uneven chunks', () => {
        const analyzer = createTranscriptAnalyzer()
        for (
          let start = 0, size = 997;
          start < bytes.length;
          start += size, size = (size * 7) % 65_521
        ) {
          analyzer.push(bytes.subarray(start, start + size))
        }
        expect(analyzer.finish()).toEqual(analyzeTranscriptBytes(bytes))
      })

      it('matches the reference with a `since` boundary in the middle', () => {
        const since = middleTimestamp(text)
        const result = analyzeTranscriptBytes(bytes, { since })
        expect(result).toEqual(referenceAnalysis(text, since))
        expect(result.lines).toBe(analyzeTranscriptBytes(bytes).lines)
      })
    })
  }

  it('counts real tool calls, results and errors in the big sessions', () => {
    const name = files.find((file) => file.startsWith('4d5611e5') && !file.includes('/'))
    const result = analyzeTranscriptBytes(readFileSync(join(TRANSCRIPTS_DIR, name as string)))
    expect(result.tool_count).toBeGreaterThan(100)
    expect(result.tool_results).toBe(result.tool_count)
    expect(result.tool_errors).toBeGreaterThan(0)
    expect(result.assistant_messages).toBeLessThan(result.tool_count + 100)
    expect(result.user_turns).toBeGreaterThan(0)
    expect(result.user_turns).toBeLessThan(10)
  })
})
