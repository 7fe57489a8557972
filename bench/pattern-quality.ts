/**
 * Pattern quality (seed 002, issue 20, docs/design/origins.md): encode real Claude Code sessions
 * into pattern files, then judge every entry by the rubric of bench/README.md against the lessons a
 * reader listed from the same transcripts (bench/pattern-lessons.json): useful / marginal / noise,
 * wrong fixes, and the share of the reader's lessons that some entry states. Targets: lesson recall
 * >= 70 %, noise <= 10 % of the entries, no wrong fix. The dataset's own developer facts
 * (session-facts.json, kinds gotcha, decision, workflow) are counted too, by their probe rule.
 *
 * Run: `npx tsx bench/pattern-quality.ts [--transcripts DIR] [--lessons FILE] [--facts FILE]
 * [--keep] [--all]`; sessions that are not in the repository are measured by pointing
 * `--transcripts` at them and `--lessons` at their reader's list. `--all` prints every verdict
 * (default: the noise and marginal ones). Results: bench/results/pattern-quality.json.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parsePatternFile } from '../src/patterns/core/pattern-entry.ts'
import { encodeRealSessions } from '../test/support/encode-real-sessions.ts'
import { factRecall, readSessionFacts } from '../test/support/fact-recall.ts'
import { TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'
import { judgeEntries, lessonRecall, readReaderLessons } from './pattern-judge.ts'

const here = dirname(fileURLToPath(import.meta.url))
const RESULTS = join(here, 'results', 'pattern-quality.json')
const TARGET = { recall: 0.7, noise: 0.1, wrongFixes: 0 }

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name)
  return index === -1 ? undefined : process.argv[index + 1]
}

const percent = (part: number, whole: number) => Math.round((part / Math.max(1, whole)) * 1000) / 10

/** Runs the benchmark, writes the results file and prints a table. */
export async function main() {
  const transcripts = option('--transcripts') ?? TRANSCRIPTS_DIR
  const lessonsPath = option('--lessons') ?? join(here, 'pattern-lessons.json')
  if (!existsSync(lessonsPath) || !existsSync(transcripts)) {
    process.stdout.write(
      `pattern-quality: no lessons at ${lessonsPath} or no ${transcripts}; skipped\n`,
    )
    return null
  }
  const reader = readReaderLessons(lessonsPath)
  const sessions = Object.values(reader.sessions)
  const started = performance.now()
  const encoded = await encodeRealSessions(sessions.map((id) => join(transcripts, `${id}.jsonl`)))
  const encodeMs = performance.now() - started
  const entries = Object.entries(encoded.files).flatMap(
    ([name, text]) => parsePatternFile(text, name.replace(/\.md$/, '')).entries,
  )
  const verdicts = judgeEntries(entries, reader)
  const count = (verdict: string) => verdicts.filter((item) => item.verdict === verdict).length
  const recall = lessonRecall(verdicts, reader)
  const wrongFixes = verdicts.filter((item) => item.wrongFix)
  const factsPath = option('--facts') ?? join(transcripts, 'session-facts.json')
  const facts = existsSync(factsPath)
    ? factRecall(
        readSessionFacts(factsPath, ['gotcha', 'decision', 'workflow']).filter((fact) =>
          sessions.includes(fact.session),
        ),
        Object.values(encoded.files).join('\n'),
      )
    : null
  const noise = count('noise')
  const result = {
    sessions: sessions.length,
    entries: entries.length,
    useful: count('useful'),
    marginal: count('marginal'),
    noise,
    noise_share: percent(noise, entries.length),
    wrong_fixes: wrongFixes.length,
    lessons_stated: recall.stated,
    lessons: recall.total,
    lesson_recall: percent(recall.stated, recall.total),
    core_stated: recall.coreStated,
    core_lessons: recall.coreTotal,
    missed: recall.missed,
    dev_facts: facts ? `${facts.kept}/${facts.total}` : null,
    verdicts: verdicts.map((item) => ({
      id: item.entry.id,
      session: item.entry.sources[0],
      category: item.entry.category,
      title: item.entry.title,
      verdict: item.verdict,
      why: item.why,
    })),
    domains: Object.keys(encoded.files).map((name) => name.replace(/\.md$/, '')),
    encode_ms: Math.round(encodeMs),
    within_target:
      recall.stated / Math.max(1, recall.total) >= TARGET.recall &&
      noise / Math.max(1, entries.length) <= TARGET.noise &&
      wrongFixes.length <= TARGET.wrongFixes,
    node: process.version,
    measured_at: new Date().toISOString(),
  }
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
  const shown = verdicts.filter(
    (item) => process.argv.includes('--all') || item.verdict !== 'useful',
  )
  process.stdout.write(
    [
      '| sessions | entries | useful | marginal | noise | wrong fixes | lessons stated (core) | dev facts | encode |',
      '|---|---|---|---|---|---|---|---|---|',
      `| ${result.sessions} | ${result.entries} | ${result.useful} | ${result.marginal} | ${noise} (${result.noise_share} %, target <= 10 %) | ${result.wrong_fixes} (target 0) | ${recall.stated}/${recall.total} = ${result.lesson_recall} % (${recall.coreStated}/${recall.coreTotal}), target >= 70 % | ${result.dev_facts ?? '-'} | ${result.encode_ms} ms |`,
      '',
      ...shown.map(
        (item) =>
          `- ${item.verdict}${item.wrongFix ? ' (wrong fix)' : ''}: [${item.entry.category}] ${item.entry.title.slice(0, 110)} — ${item.why}`,
      ),
      '',
      `missed: ${recall.missed.join(', ') || 'none'}`,
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
