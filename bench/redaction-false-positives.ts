/**
 * Issue 18, item 5: what `redactSecrets` takes out of real text that holds (almost) no secret.
 * Every string of every record of the shared Claude Code transcripts (sub-agents included) and
 * every raw line (JSON-escaped, as a tool prints JSON), and every turn of the LoCoMo dev
 * conversations. Prints the count of redactions and each distinct one in context; the one real
 * secret the transcripts hold (a Phoenix `secret_key_base`) is named as such.
 *
 * Run: `npx tsx bench/redaction-false-positives.ts` (or `npm run bench -- redaction-false-positives`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { redactSecrets } from '../src/engine/core/redact-secrets.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

/** Every string value of a parsed JSON value. */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value
  else if (Array.isArray(value)) for (const item of value) yield* stringsOf(item)
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) yield* stringsOf(item)
}

/** Each marker `text` got, with 40 characters before it. */
function redactionsIn(text: string): string[] {
  const redacted = redactSecrets(text)
  if (redacted === text) return []
  return [...redacted.matchAll(/[^\n]{0,40}\[redacted: [^\]]+\]/g)].map((match) => match[0])
}

if (!HAS_SHARED) {
  process.stdout.write(`skipped: ${SHARED_SKIP_REASON}\n`)
} else {
  const found = new Map<string, number>()
  const note = (where: string, hits: string[]) => {
    for (const hit of hits) found.set(`${where}: ${hit}`, (found.get(`${where}: ${hit}`) ?? 0) + 1)
  }
  let strings = 0
  let lines = 0
  const started = performance.now()
  for (const name of readdirSync(TRANSCRIPTS_DIR, { recursive: true }).map(String)) {
    if (!name.endsWith('.jsonl')) continue
    for (const line of readFileSync(join(TRANSCRIPTS_DIR, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      lines += 1
      note('line', redactionsIn(line))
      for (const text of stringsOf(JSON.parse(line))) {
        strings += 1
        note('string', redactionsIn(text))
      }
    }
  }
  const locomo = join(TRANSCRIPTS_DIR, '..', 'locomo-dev')
  let turns = 0
  for (const name of readdirSync(locomo, { recursive: true }).map(String)) {
    if (!name.endsWith('.json')) continue
    for (const text of stringsOf(JSON.parse(readFileSync(join(locomo, name), 'utf8')))) {
      turns += 1
      note('locomo', redactionsIn(text))
    }
  }
  const ms = performance.now() - started
  const all = [...found.entries()]
  const isRealSecret = (hit: string) => hit.includes('secret_key_base')
  const falsePositives = all.filter(([hit]) => !isRealSecret(hit))
  const count = (entries: typeof all) => entries.reduce((sum, [, times]) => sum + times, 0)
  process.stdout.write(
    `${strings} transcript strings, ${lines} raw lines, ${turns} LoCoMo strings redacted in ${ms.toFixed(0)} ms\n` +
      `redactions of the one real secret (secret_key_base): ${count(all.filter(([hit]) => isRealSecret(hit)))}\n` +
      `redactions of anything else (false positives): ${count(falsePositives)}\n`,
  )
  for (const [hit, times] of falsePositives)
    process.stdout.write(`  ${times}× ${JSON.stringify(hit)}\n`)
}
