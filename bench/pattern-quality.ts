/**
 * Pattern quality (seed 002): encode real Claude Code sessions into pattern files, then count the
 * developer facts of `session-facts.json` (kinds gotcha, decision, workflow) that the files keep,
 * by the dataset's own probe rule (fact-recall.py, ported in test/support/fact-recall.ts), and the
 * share of entries that are a complete Observation / Details / Context. Target: recall >= 0.5,
 * every entry complete. Probes are a floor, not a target: read the files too (`--keep`).
 *
 * Run: `npx tsx bench/pattern-quality.ts [--transcripts DIR] [--facts FILE] [--keep]`; other
 * sessions (not in the repository) are measured by pointing both options at them.
 * Results: bench/results/pattern-quality.json.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isCompleteEntry, parsePatternFile } from '../src/core/patterns/pattern-entry.ts'
import { encodeRealSessions } from '../test/support/encode-real-sessions.ts'
import { factRecall, readSessionFacts } from '../test/support/fact-recall.ts'
import { TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

const KINDS = ['gotcha', 'decision', 'workflow']
const TARGET_RECALL = 0.5
/** What an entry's Details must say for its category to state a lesson (a gotcha without a fix does not). */
const LESSON_STATED: Partial<Record<string, RegExp>> = {
  gotcha: /\bFix: \S/,
  'tool-failure': /\bFix: \S/,
  workaround: /\bFix: \S/,
  'debugging-insight': /\bFix: \S/,
  'architectural-decision': /\b(?:Why: |Chosen over )\S/,
  'user-preference': /\bRule\b/,
  convention: /\bRule\b/,
  'effective-approach': /\S/,
}
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results', 'pattern-quality.json')

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index === -1 ? undefined : process.argv[index + 1]
}

/** Runs the benchmark, writes the results file and prints a table. */
export async function main() {
  const transcripts = option('--transcripts') ?? TRANSCRIPTS_DIR
  const factsPath = option('--facts') ?? join(transcripts, 'session-facts.json')
  if (!existsSync(factsPath)) {
    process.stdout.write(`pattern-quality: no facts at ${factsPath}; skipped\n`)
    return null
  }
  const facts = readSessionFacts(factsPath, KINDS)
  const sessions = [...new Set(facts.map((fact) => fact.session))]
  const started = performance.now()
  const encoded = await encodeRealSessions(sessions.map((id) => join(transcripts, `${id}.jsonl`)))
  const encodeMs = performance.now() - started
  const entries = Object.entries(encoded.files).flatMap(
    ([name, text]) => parsePatternFile(text, name.replace(/\.md$/, '')).entries,
  )
  const all = Object.values(encoded.files).join('\n')
  const recall = factRecall(facts, all)
  const perKind = Object.fromEntries(
    KINDS.map((kind) => {
      const mine = facts.filter((fact) => fact.kind === kind)
      const kept = factRecall(mine, all).kept
      return [kind, `${kept}/${mine.length}`]
    }),
  )
  const complete = entries.filter(isCompleteEntry).length
  // Read, not probed: does each entry state its lesson (a fix, a reason, a rule, the steps)?
  const stated = entries.filter((entry) =>
    LESSON_STATED[entry.category]?.test(entry.details),
  ).length
  const result = {
    sessions: sessions.length,
    facts: recall.total,
    kept: recall.kept,
    recall: Math.round((recall.kept / Math.max(1, recall.total)) * 1000) / 1000,
    target_recall: TARGET_RECALL,
    per_kind: perKind,
    missed: recall.missed,
    entries: entries.length,
    complete_entries: complete,
    lesson_stated: stated,
    domains: Object.keys(encoded.files).map((name) => name.replace(/\.md$/, '')),
    pattern_chars: all.length,
    encode_ms: Math.round(encodeMs),
    within_target:
      recall.kept / Math.max(1, recall.total) >= TARGET_RECALL && complete === entries.length,
    node: process.version,
    measured_at: new Date().toISOString(),
  }
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
  process.stdout.write(
    [
      '| sessions | dev facts kept | recall | entries complete | lesson stated | domains | encode |',
      '|---|---|---|---|---|---|---|',
      `| ${result.sessions} | ${result.kept}/${result.facts} (${Object.entries(perKind)
        .map(([kind, kept]) => `${kind} ${kept}`)
        .join(
          ', ',
        )}) | ${result.recall} (target >= ${TARGET_RECALL}) | ${complete}/${entries.length} | ${stated}/${entries.length} | ${result.domains.join(', ')} | ${result.encode_ms} ms |`,
      '',
      `missed: ${result.missed.join(', ') || 'none'}`,
      process.argv.includes('--keep')
        ? `pattern files kept in ${encoded.workspace.patternsDir}`
        : '',
      '',
    ].join('\n'),
  )
  if (!process.argv.includes('--keep')) rmSync(encoded.base, { recursive: true, force: true })
  if (!result.within_target) process.exitCode = 1
  return result
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
