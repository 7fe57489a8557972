/**
 * What a creature remembers of a conversation (issue 12's quality proof): each LoCoMo dev
 * conversation is replayed through `createMind` as a creature's conversation, each session one
 * wake period (the clock set to the session's date, the turns recorded as messages, then a
 * voluntary sleep that consolidates with the default offline extractive mind). The observations
 * file is then scored as bench/locomo-retention.ts scores summaries: for every answerable
 * question (categories 1-4), the share of the gold answer's normalized tokens present in the
 * observation lines of its evidence sessions' dreams, divided by the same share in those sessions'
 * raw turns (`Speaker: text`, no date line: the file's `## YYYY-MM-DD` headers are not credited
 * either), capped at 1. Size: tokens of the whole observations.md (title, headers, dream markers
 * included) over tokens of the conversation. Beside it, LoCoMo's own LLM-written observations,
 * written as an observations file of the same format (`GRN HH:MM fact` lines under the same headers
 * and markers). The mind never sees the questions. Deterministic.
 *
 * Standing orders (issue 21): before the first session's turns, the creature's creator gives two
 * standing orders (ORDERS, written for this bench, not taken from the data). Every wake message
 * after each of the first 12 dreams (a deep sleep among them) must carry both; the rows report how
 * many did, and priorities.md's items after the last deep sleep: how many, and how many of them
 * are the creator's orders (the rest are listed in the results file, to be read).
 *
 * Run: `npx tsx bench/mind-retention.ts` (or `npm run bench -- mind-retention`).
 * Writes bench/results/mind-retention.json and prints a markdown table.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseTimestamp } from '../src/engine/core/extractive/timestamps.ts'
import { countTokens } from '../src/engine/core/tokens.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import { createMemoryMindStore } from '../src/mind/adapters/memory/memory-mind-store.ts'
import type { MindConfig } from '../src/mind/core/mind-config.ts'
import { observationsBlock, parseObservations } from '../src/mind/core/observations-file.ts'
import { createMind } from '../src/mind/create-mind.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../test/support/shared-data.ts'
import { loadConversation, normalizedTokens, type Question, type Session } from './locomo-data.ts'

/** One row: a method on one conversation (or `all`). */
export interface MindRetentionRow {
  conversation: string
  method: 'creature (extractive)' | 'LoCoMo observations (LLM)'
  /** Tokens of observations.md / tokens of the conversation. */
  tokenShare: number
  retention: number
  questions: number
  observations: number
  dreams: number
  deepSleeps: number
  /** Wake messages after the first 12 dreams that carried both standing orders / checked. */
  ordersCarried?: string
  /** priorities.md after the last deep sleep: items, and items that are the creator's orders. */
  priorities?: { items: number; orders: number; lines: string[] }
}

/** The creator's standing orders, given before the first session. */
export const ORDERS = [
  'Never share anyone’s home address or phone number with a third party.',
  'Always write a short weekly summary of what your friends told you, every Sunday evening.',
] as const
/** Wake messages checked for the orders: after this many dreams. */
const CHECKED_DREAMS = 12

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** The session's start as a Date (LoCoMo writes `1:56 pm on 8 May, 2023`). */
function sessionStart(session: Session): Date {
  const parts = parseTimestamp(session.units[0]?.timestamp)
  const [day, month, year] = (parts.date ?? '1 January 2000').split(' ')
  const [hours, minutes] = (parts.time ?? '12:00').split(':').map(Number)
  return new Date(
    Date.UTC(Number(year), MONTHS.indexOf(month ?? 'January'), Number(day), hours, minutes),
  )
}

/** The raw turns of a session as the scorer reads them: `Speaker: text`, no date line. */
function rawTurns(session: Session): string {
  return session.units.map((unit) => `${unit.speaker}: ${unit.text}`).join('\n')
}

/** Replays one conversation; returns observations.md and each session's observation lines. */
async function replay(sessions: readonly Session[], config: Partial<MindConfig>) {
  let now = 0
  const store = createMemoryMindStore()
  const mind = createMind({
    store,
    config,
    clock: { now: () => new Date(now) },
    ids: sequentialIds(),
  })
  const speakers = [
    ...new Set(sessions.flatMap((session) => session.units.map((unit) => unit.speaker))),
  ]
  const dreamOf = new Map<string, string>()
  let deepSleeps = 0
  let checked = 0
  let carried = 0
  const checkWake = (message: string) => {
    if (dreamOf.size === 0 || dreamOf.size > CHECKED_DREAMS) return
    checked += 1
    if (ORDERS.every((order) => message.includes(order))) carried += 1
  }
  for (const [index, session] of sessions.entries()) {
    now = sessionStart(session).getTime()
    checkWake((await mind.wake()).message)
    if (index === 0) {
      for (const order of ORDERS)
        await mind.record({ role: 'system', name: 'Creator', content: order })
    }
    for (const unit of session.units) {
      now += 30_000
      await mind.record({
        role: unit.speaker === speakers[0] ? 'user' : 'assistant',
        name: unit.speaker,
        content: unit.text,
      })
    }
    now += 60_000
    const slept = await mind.sleep({ seconds: 3_600 })
    if (!slept.dream) throw new Error(`session ${session.key} did not consolidate: ${slept.reason}`)
    if (slept.deep) deepSleeps += 1
    dreamOf.set(session.key, slept.dream.id)
  }
  now += 3_600_000
  checkWake((await mind.wake()).message)
  const { text } = await mind.observations()
  const lines = ((await store.files.readDocument('priorities')) ?? '')
    .split('\n')
    .filter((line) => /^\d+\. /.test(line))
  const priorities = {
    items: lines.length,
    orders: lines.filter((line) => ORDERS.some((order) => line.includes(order))).length,
    lines,
  }
  return {
    text,
    blocks: blocksOf(text, dreamOf),
    dreams: dreamOf.size,
    deepSleeps,
    ordersCarried: `${carried}/${checked}`,
    priorities,
  }
}

/** Session key → its dream's observation lines (whatever deep sleep left of them). */
function blocksOf(text: string, dreamOf: ReadonlyMap<string, string>): Map<string, string> {
  const lines = new Map<string, string[]>()
  for (const section of parseObservations(text).sections) {
    let dream = ''
    for (const line of section.lines) {
      if (line.kind === 'marker') dream = line.dream
      if (line.kind === 'observation') lines.set(dream, [...(lines.get(dream) ?? []), line.text])
    }
  }
  return new Map([...dreamOf].map(([key, dream]) => [key, (lines.get(dream) ?? []).join('\n')]))
}

/** LoCoMo's own observations written as an observations file of the same format. */
function locomoFile(sessions: readonly Session[]) {
  let text = ''
  const blocks = new Map<string, string>()
  sessions.forEach((session, index) => {
    const start = sessionStart(session)
    const time = start.toISOString().slice(11, 16)
    const observations = session.observations.map((item) => ({
      priority: 'GRN' as const,
      time,
      text: item.text,
    }))
    text += observationsBlock(
      text,
      { id: `locomo_${index + 1}`, date: start.toISOString().slice(0, 10) },
      observations,
    )
    blocks.set(session.key, observations.map((item) => item.text).join('\n'))
  })
  return { text, blocks }
}

function recall(answer: ReadonlySet<string>, text: string): number {
  const present = new Set(normalizedTokens(text))
  return [...answer].filter((token) => present.has(token)).length / answer.size
}

/** Mean capped retention over the questions whose answer has a token in the raw evidence. */
function retention(
  questions: readonly Question[],
  sessions: ReadonlyMap<string, Session>,
  blocks: ReadonlyMap<string, string>,
) {
  const scores: number[] = []
  for (const question of questions) {
    if (question.sessions.length === 0 || question.answerTokens.size === 0) continue
    const raw = recall(
      question.answerTokens,
      question.sessions.map((key) => rawTurns(sessions.get(key) as Session)).join('\n'),
    )
    if (raw === 0) continue
    const kept = recall(
      question.answerTokens,
      question.sessions.map((key) => blocks.get(key) ?? '').join('\n'),
    )
    scores.push(Math.min(1, kept / raw))
  }
  return {
    value: scores.reduce((sum, score) => sum + score, 0) / Math.max(1, scores.length),
    questions: scores.length,
  }
}

/** Runs the benchmark; `conversations` limits it (ids like `26`). */
export async function main(
  options: { conversations?: string[]; quiet?: boolean; config?: Partial<MindConfig> } = {},
): Promise<MindRetentionRow[]> {
  if (!HAS_SHARED) {
    process.stdout.write(`LoCoMo data not found at ${LOCOMO_DIR}: benchmark skipped.\n`)
    return []
  }
  const files = readdirSync(LOCOMO_DIR)
    .filter((name) => name.endsWith('.json'))
    .filter(
      (name) =>
        !options.conversations || options.conversations.includes(name.replace(/\.json$/, '')),
    )
    .sort()
  const rows: MindRetentionRow[] = []
  for (const file of files) {
    const conversation = file.replace(/\.json$/, '')
    const { sessions, questions } = loadConversation(join(LOCOMO_DIR, file))
    const byKey = new Map(sessions.map((session) => [session.key, session]))
    const tokens = countTokens(sessions.map(rawTurns).join('\n'))
    const creature = await replay(sessions, options.config ?? {})
    const mine = retention(questions, byKey, creature.blocks)
    rows.push({
      conversation,
      method: 'creature (extractive)',
      tokenShare: countTokens(creature.text) / tokens,
      retention: mine.value,
      questions: mine.questions,
      observations: parseObservations(creature.text).sections.reduce(
        (sum, section) => sum + section.lines.filter((line) => line.kind === 'observation').length,
        0,
      ),
      dreams: creature.dreams,
      deepSleeps: creature.deepSleeps,
      ordersCarried: creature.ordersCarried,
      priorities: creature.priorities,
    })
    const locomo = locomoFile(sessions)
    const theirs = retention(questions, byKey, locomo.blocks)
    rows.push({
      conversation,
      method: 'LoCoMo observations (LLM)',
      tokenShare: countTokens(locomo.text) / tokens,
      retention: theirs.value,
      questions: theirs.questions,
      observations: sessions.reduce((sum, session) => sum + session.observations.length, 0),
      dreams: sessions.length,
      deepSleeps: 0,
    })
  }
  for (const method of ['creature (extractive)', 'LoCoMo observations (LLM)'] as const) {
    const of = rows.filter((row) => row.method === method)
    if (of.length < 2) continue
    const mean = (pick: (row: MindRetentionRow) => number) =>
      of.reduce((sum, row) => sum + pick(row), 0) / of.length
    rows.push({
      conversation: 'mean',
      method,
      tokenShare: mean((row) => row.tokenShare),
      retention: mean((row) => row.retention),
      questions: of.reduce((sum, row) => sum + row.questions, 0),
      observations: of.reduce((sum, row) => sum + row.observations, 0),
      dreams: of.reduce((sum, row) => sum + row.dreams, 0),
      deepSleeps: of.reduce((sum, row) => sum + row.deepSleeps, 0),
    })
  }
  if (options.quiet) return rows
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results/mind-retention.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify({ dataset: 'LoCoMo dev half', rows }, null, 2)}\n`)
  const fixed = (value: number) => value.toFixed(3)
  process.stdout.write(
    [
      '| conversation | method | observations.md tokens / conversation tokens | answer retention | questions | observations | dreams (deep) | wakes carrying both orders | priorities.md items (orders) |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.conversation} | ${row.method} | ${fixed(row.tokenShare)} | ${fixed(row.retention)} | ${row.questions} | ${row.observations} | ${row.dreams} (${row.deepSleeps}) | ${row.ordersCarried ?? ''} | ${row.priorities ? `${row.priorities.items} (${row.priorities.orders})` : ''} |`,
      ),
      '',
    ].join('\n'),
  )
  return rows
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main()
