/**
 * Does `somnus recall` answer what a developer asks? The questions of
 * bench/data/recall-questions.json (37, written from the three real sessions before recall existed)
 * go to `somnus recall <question> --json` (top 5) on a brain built from those sessions as a user
 * gets it (bench/support/recall-brain.ts). A question is answered when the returned text, cut at
 * 2,000 tokens, holds one alternative of every expected group. Target: >= 80%.
 *
 * Run: `npm run bench -- recall-quality`. Results: bench/results/recall-quality.json.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { countTokens } from '../src/engine/core/tokens.ts'
import { ensureBuilt, SOMNUS_BIN } from '../test/support/build-once.ts'
import { buildRecallBrain, run } from './support/recall-brain.ts'

const here = dirname(fileURLToPath(import.meta.url))
const SHARED = process.env.SOMNUS_SHARED_DIR ?? join(here, '../../shared')
const DATASET = join(SHARED, 'datasets/claude-code-transcripts')
const RESULTS = join(here, 'results', 'recall-quality.json')
const TOP = 5
const MAX_TOKENS = 2000
const TARGET = 0.8

interface Question {
  id: string
  question: string
  expect: string[][]
}

/** The returned text of the hits, cut at MAX_TOKENS. */
function returnedText(hits: { location: string; snippet: string }[]): string {
  const parts: string[] = []
  let tokens = 0
  for (const hit of hits.slice(0, TOP)) {
    const text = `${hit.location}\n${hit.snippet}\n`
    const cost = countTokens(text)
    if (tokens + cost > MAX_TOKENS) break
    tokens += cost
    parts.push(text)
  }
  return parts.join('\n')
}

async function main() {
  if (!existsSync(DATASET)) {
    process.stdout.write(`skipped: ${DATASET} not found (clone the project beside ../shared)\n`)
    return
  }
  await ensureBuilt()
  const questions = (
    JSON.parse(readFileSync(join(here, 'data/recall-questions.json'), 'utf8')) as {
      questions: Question[]
    }
  ).questions
  const brain = buildRecallBrain(DATASET)
  try {
    const rows = questions.map((question) => {
      const output = run([SOMNUS_BIN, 'recall', question.question, '-n', String(TOP), '--json'], {
        cwd: brain.project,
        env: brain.env,
      }).stdout
      const hits = JSON.parse(output) as { location: string; snippet: string; kind: string }[]
      const text = returnedText(hits).toLowerCase()
      const missing = question.expect.filter(
        (group) => !group.some((alternative) => text.includes(alternative.toLowerCase())),
      )
      return {
        id: question.id,
        answered: missing.length === 0,
        missing,
        kinds: hits.map((hit) => hit.kind),
        tokens: countTokens(returnedText(hits)),
      }
    })
    const answered = rows.filter((row) => row.answered).length
    const ratio = answered / rows.length
    const result = {
      answered,
      total: rows.length,
      ratio: Number(ratio.toFixed(3)),
      target: TARGET,
      rows,
    }
    mkdirSync(dirname(RESULTS), { recursive: true })
    writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`)
    process.stdout.write(
      `| questions | answered in top ${TOP} (<= ${MAX_TOKENS} tokens) | target |\n|---|---|---|\n`,
    )
    process.stdout.write(
      `| ${rows.length} | ${answered} (${(ratio * 100).toFixed(1)}%) | >= ${TARGET * 100}% |\n\n`,
    )
    const missed = rows
      .filter((row) => !row.answered)
      .map((row) => `${row.id} (missing ${row.missing.map((group) => group[0]).join(', ')})`)
    if (missed.length > 0) process.stdout.write(`missed: ${missed.join('; ')}\n`)
    if (ratio < TARGET) process.exitCode = 1
  } finally {
    rmSync(brain.project, { recursive: true, force: true })
    rmSync(brain.home, { recursive: true, force: true })
  }
}

await main()
