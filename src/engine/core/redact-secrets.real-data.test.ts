/** Redaction on real Claude Code transcripts: ordinary work (code, logs, paths, hashes) stays whole. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../test/support/shared-data.ts'
import { redactSecrets } from './redact-secrets.ts'

/** Every string value of a parsed JSON record. */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item)
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) yield* stringsOf(item)
}

describe.skipIf(!HAS_SHARED)('redactSecrets on the real transcripts', () => {
  it('redacts only the one real secret they hold (a Phoenix secret_key_base, quoted 3 times)', () => {
    const redactions: string[] = []
    let strings = 0
    const files = readdirSync(TRANSCRIPTS_DIR, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('.jsonl'))
    for (const name of files) {
      for (const line of readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8').split('\n')) {
        if (line.trim() === '') continue
        for (const text of stringsOf(JSON.parse(line))) {
          strings += 1
          const redacted = redactSecrets(text)
          redactions.push(
            ...[...redacted.matchAll(/\S+:? \S*\[redacted: [^\]]+\]/g)].map((m) => m[0]),
          )
        }
      }
    }
    expect(strings).toBeGreaterThan(90_000)
    expect(redactions).toEqual([
      'secret_key_base: "[redacted: secret]',
      'secret_key_base: "[redacted: secret]',
      'secret_key_base: "[redacted: secret]',
    ])
  })
})
