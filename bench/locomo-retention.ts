/**
 * How much of what a conversation's questions need survives compression, measured without an LLM
 * (peers-and-benchmarks.md §10). Each LoCoMo session is compressed to 5-50 % of its tokens by the
 * extractive summarizer, by naive truncation (first turns, last turns), and by LoCoMo's own
 * LLM-written session summaries and observations (whole, and cut to each budget when longer).
 * For every answerable question (categories 1-4) whose evidence resolves to turn ids we measure
 * answer retention: the share of the gold answer's normalized tokens present in the compressed
 * evidence session(s), divided by the same share in the raw session(s), capped at 1; questions
 * whose answer has no token in the raw session are skipped and counted. Evidence retention is the
 * share of evidence turns a method kept (its provenance); LoCoMo's summaries have none.
 *
 * Raw session = every turn as `Speaker: text` under a `[date]` line (the session's date_time), the
 * same rendering the summarizer returns when the budget allows everything. Image turns carry
 * `[image: <blip_caption>]` after their text: the caption is the dataset's description of what was
 * shared, and some questions ask about it. The summarizer sees only the session's turns and date;
 * the answers are read only by the scorer. Deterministic: same data, same table.
 *
 * Run: `npx tsx bench/locomo-retention.ts` (or `npm run bench -- locomo-retention`).
 * Writes bench/results/locomo-retention.json and prints a markdown table.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import { countTokens } from '../src/engine/core/tokens.ts'
import { fixedClock } from '../src/engine/ports/clock.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import { makeLevels } from '../src/service/app/compress-handoffs.ts'
import { newHandoff } from '../src/service/app/create-handoffs.ts'
import { locomoDate } from '../src/service/core/locomo-handoffs.ts'
import { resolveServiceConfig } from '../src/service/core/service-config.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../test/support/shared-data.ts'
import { loadConversation, normalizedTokens, type Question, type Session } from './locomo-data.ts'

/** Budgets as shares of each session's tokens. */
export const BUDGETS = [0.05, 0.1, 0.2, 0.3, 0.5]

/** What a method made of one session: the text and the turns it kept. */
interface Compressed {
  text: string
  kept: Set<string>
}

type Method = (session: Session, budgetTokens: number) => Promise<Compressed>

/** One row of the result table. */
export interface Row {
  method: string
  budget: string
  /** Mean over sessions of tokens after / tokens before. */
  compression: number
  /** Mean over scored questions of normalized answer retention (capped at 1). */
  retention: number
  /** The same without the cap (LoCoMo's summaries can state what the turns only imply). */
  retentionUncapped: number
  /**
   * Retention when `[date]` header lines are not credited (removed from raw and compressed text
   * before scoring, questions re-filtered): what the turns' own words keep.
   */
  retentionWithoutDates: number
  /** Mean share of evidence turns kept; null for methods without provenance. */
  evidenceRetention: number | null
  /** Mean normalized retention per question category (1-4). */
  retentionByCategory: Record<string, number>
}

function truncateTokens(text: string, budget: number, fromEnd = false): string {
  const tokens = encode(text)
  if (tokens.length <= budget) return text
  return decode(fromEnd ? tokens.slice(tokens.length - budget) : tokens.slice(0, budget))
}

/** Turns whose whole line survived a truncation. */
function wholeTurns(session: Session, text: string): Set<string> {
  const whole = session.units.filter((unit) => text.includes(`${unit.speaker}: ${unit.text}`))
  return new Set(whole.map((unit) => unit.id))
}

const extractive = createExtractiveLanguageModel()

/** Every method, by name. */
export const METHODS: Record<string, Method> = {
  extractive: async (session, budget) => {
    const { value } = await extractive.summarize({ units: session.units, budgetTokens: budget })
    return { text: value.text, kept: new Set(value.sources) }
  },
  'first-turns': async (session, budget) => {
    const text = truncateTokens(session.raw, budget)
    return { text, kept: wholeTurns(session, text) }
  },
  'last-turns': async (session, budget) => {
    const text = truncateTokens(session.raw, budget, true)
    return { text, kept: wholeTurns(session, text) }
  },
  'locomo-summary': async (session, budget) => ({
    text: truncateTokens(session.summary, budget),
    kept: new Set(),
  }),
  /** The service's summary level (~500 tokens) of the session imported as a handoff. */
  'handoff-summary': async (session) => serviceLevel(session, 'summary'),
  /** The service's quick_ref level (~100 tokens), drawn from what the summary kept. */
  'handoff-quick-ref': async (session) => serviceLevel(session, 'quickRef'),
  /** Whole observations, in file order, while they fit. */
  'locomo-observation': async (session, budget) => {
    const lines: string[] = []
    const kept = new Set<string>()
    for (const { text, source } of session.observations) {
      if (countTokens([...lines, text].join('\n')) > budget) break
      lines.push(text)
      kept.add(source)
    }
    return { text: lines.join('\n'), kept }
  },
}

/**
 * A level of `session` as `somnus handoffs import --format locomo` and `handoff_compression` make
 * it: the session as a handoff (turns with dialog ids), levels from the extractive model with the
 * service's default budgets. The handoff is dated in ISO form (`[2023-05-08]`), so compare the
 * "dates not credited" column with the other methods.
 */
async function serviceLevel(session: Session, level: 'summary' | 'quickRef'): Promise<Compressed> {
  const handoff = newHandoff(
    { clock: fixedClock('2026-01-01T00:00:00Z'), ids: sequentialIds() },
    'bench',
    {
      created_at: locomoDate(session.units[0]?.timestamp ?? '') ?? '2026-01-01T00:00:00Z',
      turns: session.units.map((unit) => ({ id: unit.id, text: unit.text, speaker: unit.speaker })),
    },
  )
  const made = await makeLevels(
    extractive,
    handoff,
    { needsSummary: true, needsQuickRef: true },
    SERVICE_CONFIG,
  )
  const chosen = made[level]
  return { text: chosen?.text ?? '', kept: new Set(chosen?.sources ?? []) }
}

const SERVICE_CONFIG = resolveServiceConfig({})

/** Methods with the service's own budgets (500 and 100 tokens), run once rather than per share. */
const SERVICE_LEVELS = ['handoff-summary', 'handoff-quick-ref']

/** The `[8 May 2023]` lines the renderer puts above each date's turns. */
const DATE_LINE = /^\[[^\]\n]*\]$/gm

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length
}

/** Share of the answer's tokens in `text`; `withoutDates` first drops `[date]` header lines. */
function answerRecall(answer: ReadonlySet<string>, text: string, withoutDates = false): number {
  const present = new Set(normalizedTokens(withoutDates ? text.replace(DATE_LINE, '') : text))
  return [...answer].filter((token) => present.has(token)).length / answer.size
}

/**
 * The questions whose answer shares a token with the raw evidence session(s), and a scorer that
 * gives each one's retention (recall in a method's text / recall in the raw text, uncapped).
 */
function scoringSet(
  located: readonly Question[],
  sessions: ReadonlyMap<string, Session>,
  withoutDates: boolean,
) {
  const joined = (question: Question, textOf: (key: string) => string) =>
    question.sessions.map(textOf).join('\n')
  const raw = new Map(
    located.map((question) => [
      question,
      answerRecall(
        question.answerTokens,
        joined(question, (key) => sessions.get(key)?.raw ?? ''),
        withoutDates,
      ),
    ]),
  )
  const questions = located.filter((question) => (raw.get(question) ?? 0) > 0)
  return {
    questions,
    retention: (textOf: (key: string) => string) =>
      questions.map(
        (question) =>
          answerRecall(question.answerTokens, joined(question, textOf), withoutDates) /
          (raw.get(question) ?? 1),
      ),
  }
}

/** What to run; by default every method at every budget, with results written and printed. */
export interface BenchOptions {
  methods?: string[]
  budgets?: number[]
  /** Return the rows without writing the results file or printing. */
  quiet?: boolean
  /** Only these conversations (file names without `.json`, e.g. `42`); all by default. */
  conversations?: string[]
}

/** Runs the benchmark and returns its rows. */
export async function main(options: BenchOptions = {}): Promise<Row[]> {
  if (!HAS_SHARED) {
    process.stdout.write(`LoCoMo data not found at ${LOCOMO_DIR}: benchmark skipped.\n`)
    return []
  }
  const started = performance.now()
  const files = readdirSync(LOCOMO_DIR)
    .filter((name) => name.endsWith('.json'))
    .filter(
      (name) =>
        !options.conversations || options.conversations.includes(name.replace(/\.json$/, '')),
    )
    .sort()
  const sessions = new Map<string, Session>()
  const questions: Question[] = []
  for (const file of files) {
    const loaded = loadConversation(join(LOCOMO_DIR, file))
    for (const session of loaded.sessions) sessions.set(session.key, session)
    questions.push(...loaded.questions)
  }
  const located = questions.filter(
    (question) => question.sessions.length > 0 && question.answerTokens.size > 0,
  )
  const withDates = scoringSet(located, sessions, false)
  const withoutDates = scoringSet(located, sessions, true)

  const methods = options.methods ?? Object.keys(METHODS)
  const plans: { method: string; label: string; share: number }[] = methods
    .filter((method) => !SERVICE_LEVELS.includes(method))
    .flatMap((method) =>
      (options.budgets ?? BUDGETS).map((share) => ({
        method,
        label: `${Math.round(share * 100)}%`,
        share,
      })),
    )
  for (const method of ['locomo-summary', 'locomo-observation', ...SERVICE_LEVELS].filter((name) =>
    methods.includes(name),
  )) {
    const label = SERVICE_LEVELS.includes(method) ? 'service default' : 'natural'
    plans.push({ method, label, share: Number.POSITIVE_INFINITY })
  }
  const rows: Row[] = []
  for (const plan of plans) {
    const run = METHODS[plan.method]
    if (!run)
      throw new Error(
        `Unknown method ${plan.method}: use one of ${Object.keys(METHODS).join(', ')}`,
      )
    const compressed = new Map<string, Compressed>()
    const ratios: number[] = []
    for (const [key, session] of sessions) {
      const budget = Number.isFinite(plan.share)
        ? Math.floor(session.tokens * plan.share)
        : Number.MAX_SAFE_INTEGER
      const result = await run(session, budget)
      compressed.set(key, result)
      ratios.push(countTokens(result.text) / session.tokens)
    }
    const textOf = (key: string) => compressed.get(key)?.text ?? ''
    const uncapped = withDates.retention(textOf)
    const capped = uncapped.map((value) => Math.min(1, value))
    const evidence = withDates.questions.map(
      (question) =>
        question.evidence.filter((id) =>
          question.sessions.some((key) => compressed.get(key)?.kept.has(id)),
        ).length / question.evidence.length,
    )
    const byCategory: Record<string, number> = {}
    for (const category of [1, 2, 3, 4]) {
      const ofCategory = capped.filter(
        (_, index) => withDates.questions[index]?.category === category,
      )
      byCategory[category] = mean(ofCategory)
    }
    rows.push({
      method: plan.method,
      budget: plan.label,
      compression: mean(ratios),
      retention: mean(capped),
      retentionUncapped: mean(uncapped),
      retentionWithoutDates: mean(
        withoutDates.retention(textOf).map((value) => Math.min(1, value)),
      ),
      evidenceRetention: plan.method === 'locomo-summary' ? null : mean(evidence),
      retentionByCategory: byCategory,
    })
  }
  if (options.quiet) return rows

  const summary = {
    dataset: 'LoCoMo dev half (../shared/datasets/locomo-dev)',
    conversations: files.map((name) => name.replace(/\.json$/, '')),
    sessions: sessions.size,
    questions_answerable: questions.length,
    questions_without_evidence: questions.length - located.length,
    questions_zero_raw_recall: located.length - withDates.questions.length,
    questions_scored: withDates.questions.length,
    questions_scored_without_dates: withoutDates.questions.length,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results/locomo-retention.json')
  mkdirSync(dirname(out), { recursive: true })
  const split = await heldOutSplit()
  writeFileSync(out, `${JSON.stringify({ ...summary, rows, split }, null, 2)}\n`)
  process.stdout.write(table(rows, summary))
  process.stdout.write(splitTable(split))
  return rows
}

/** The conversations the summarizer's weights were chosen on; the others are held out. */
export const TUNING_CONVERSATIONS = ['26', '30', '41']
/** Held out: never looked at while choosing a weight. */
export const HELD_OUT_CONVERSATIONS = ['42', '43']

/** `extractive` at 20 % on the tuning conversations and on the held-out ones, apart. */
async function heldOutSplit(): Promise<{ half: string; row: Row | undefined }[]> {
  const halves = [
    { half: `tuning (${TUNING_CONVERSATIONS.join(', ')})`, conversations: TUNING_CONVERSATIONS },
    {
      half: `held out (${HELD_OUT_CONVERSATIONS.join(', ')})`,
      conversations: HELD_OUT_CONVERSATIONS,
    },
  ]
  const split = []
  for (const { half, conversations } of halves) {
    const [row] = await main({
      methods: ['extractive'],
      budgets: [0.2],
      quiet: true,
      conversations,
    })
    split.push({ half, row })
  }
  return split
}

function splitTable(split: readonly { half: string; row: Row | undefined }[]): string {
  const fixed = (value: number | undefined) => (value ?? 0).toFixed(3)
  return [
    'extractive at 20 %, by half:',
    '',
    '| conversations | tokens after/before | answer retention | same, dates not credited | evidence turns kept |',
    '|---|---|---|---|---|',
    ...split.map(
      ({ half, row }) =>
        `| ${half} | ${fixed(row?.compression)} | ${fixed(row?.retention)} | ${fixed(row?.retentionWithoutDates)} | ${fixed(row?.evidenceRetention ?? undefined)} |`,
    ),
    '',
  ].join('\n')
}

function table(
  rows: readonly Row[],
  summary: {
    sessions: number
    questions_scored: number
    questions_zero_raw_recall: number
    questions_without_evidence: number
    questions_scored_without_dates: number
    seconds: number
  },
): string {
  const fixed = (value: number) => value.toFixed(3)
  return [
    `LoCoMo dev: ${summary.sessions} sessions, ${summary.questions_scored} questions scored (${summary.questions_zero_raw_recall} skipped: no answer token in the raw session; ${summary.questions_without_evidence} without resolvable evidence; ${summary.questions_scored_without_dates} scored when dates are not credited), ${summary.seconds} s`,
    '',
    '| method | budget | tokens after/before | answer retention | same, dates not credited | evidence turns kept |',
    '|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.method} | ${row.budget} | ${fixed(row.compression)} | ${fixed(row.retention)} | ${fixed(row.retentionWithoutDates)} | ${row.evidenceRetention === null ? 'n/a' : fixed(row.evidenceRetention)} |`,
    ),
    '',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
