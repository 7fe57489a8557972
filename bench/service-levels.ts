/**
 * What the service's compression levels keep and save (issue 22 item 7), on the LoCoMo dev
 * conversations: each session is a handoff as `somnus handoffs import --format locomo` makes it
 * (its turns, with their dialog ids), its levels made as `handoff_compression` makes them (the
 * extractive model, the default budgets; a level only for a text longer than its budget).
 *
 * Kept: for every answerable question (categories 1-4), the share of its evidence turns a level
 * cites in its sources (the full text keeps all), and the share of questions whose every evidence
 * turn is cited. Saved: 1 - active tokens / full tokens over all sessions, with every handoff old,
 * and with ages spread evenly over half a year and over a year (full under 30 days, summary to
 * 90, quick ref beyond; integration is left out: it needs principles).
 *
 * Run: `npx tsx bench/service-levels.ts` (or `npm run bench -- service-levels`).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import { fixedClock } from '../src/engine/ports/clock.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
import { makeLevels } from '../src/service/app/compress-handoffs.ts'
import { newHandoff } from '../src/service/app/create-handoffs.ts'
import { locomoDate } from '../src/service/core/locomo-handoffs.ts'
import { DEFAULT_SERVICE_CONFIG } from '../src/service/core/service-config.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../test/support/shared-data.ts'
import { loadConversation } from './locomo-data.ts'

if (!HAS_SHARED) {
  process.stdout.write(`LoCoMo not found at ${LOCOMO_DIR}: skipped\n`)
  process.exit(0)
}

const model = createExtractiveLanguageModel()
const config = DEFAULT_SERVICE_CONFIG

interface SessionLevels {
  tokens: { full: number; summary: number; quickRef: number }
  kept: { summary: Set<string>; quickRef: Set<string> }
  summarySkipped: boolean
}

const levels: SessionLevels[] = []
const questions: { evidence: string[]; split: 'tune' | 'holdout' }[] = []
/** Conversations the salience rules may be looked at on; the rest are held out. */
const TUNE = new Set(['26', '30', '41'])
const keptBy = new Map<string, SessionLevels>()
for (const file of readdirSync(LOCOMO_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()) {
  const conversation = loadConversation(join(LOCOMO_DIR, file))
  const prefix = file.replace(/\.json$/, '')
  for (const session of conversation.sessions) {
    const handoff = newHandoff(
      { clock: fixedClock('2026-01-01T00:00:00Z'), ids: sequentialIds() },
      'bench',
      {
        created_at: locomoDate(session.units[0]?.timestamp ?? '') ?? '2026-01-01T00:00:00Z',
        turns: session.units.map((unit) => ({
          id: unit.id,
          text: unit.text,
          speaker: unit.speaker,
        })),
      },
    )
    const needsSummary = handoff.full_tokens > config.summary_budget_tokens
    const made = await makeLevels(model, handoff, { needsSummary, needsQuickRef: true }, config)
    const all = new Set(session.units.map((unit) => unit.id))
    const summary = needsSummary ? made.summary : null
    const quickRef = made.quickRef
    const entry: SessionLevels = {
      tokens: {
        full: handoff.full_tokens,
        summary: summary?.tokens ?? handoff.full_tokens,
        quickRef: quickRef?.tokens ?? summary?.tokens ?? handoff.full_tokens,
      },
      kept: {
        summary: summary ? new Set(summary.sources) : all,
        quickRef: quickRef ? new Set(quickRef.sources) : all,
      },
      summarySkipped: !needsSummary,
    }
    levels.push(entry)
    for (const unit of session.units) keptBy.set(`${prefix}:${unit.id}`, entry)
  }
  for (const question of conversation.questions)
    questions.push({
      evidence: question.evidence.map((id) => `${prefix}:${id}`),
      split: TUNE.has(prefix) ? 'tune' : 'holdout',
    })
}

/** Evidence turns a level cites, and questions with all their evidence cited. */
function kept(level: 'summary' | 'quickRef', split?: 'tune' | 'holdout') {
  let turns = 0
  let turnsKept = 0
  let whole = 0
  let scored = 0
  for (const question of questions) {
    if (split && question.split !== split) continue
    const known = question.evidence.filter((id) => keptBy.has(id))
    if (known.length === 0) continue
    scored += 1
    let all = true
    for (const id of known) {
      turns += 1
      const isKept = keptBy.get(id)?.kept[level].has(id.slice(id.indexOf(':') + 1)) ?? false
      if (isKept) turnsKept += 1
      else all = false
    }
    if (all) whole += 1
  }
  return { turns: turnsKept / turns, questions: whole / scored, scored }
}

const sum = (pick: (entry: SessionLevels, index: number) => number) =>
  levels.reduce((total, entry, index) => total + pick(entry, index), 0)
const full = sum((entry) => entry.tokens.full)
const activeAt = (entry: SessionLevels, ageDays: number) =>
  ageDays > config.quick_ref_threshold_days
    ? entry.tokens.quickRef
    : ageDays > config.summary_threshold_days
      ? entry.tokens.summary
      : entry.tokens.full
const spread = (days: number) =>
  1 - sum((entry, index) => activeAt(entry, (days * (index + 0.5)) / levels.length)) / full
const percent = (value: number) => `${(100 * value).toFixed(1)} %`

const summary = kept('summary')
const quickRef = kept('quickRef')
process.stdout.write(
  [
    `${levels.length} sessions (mean ${Math.round(full / levels.length)} tokens), ${summary.scored} questions with evidence; ${levels.filter((entry) => entry.summarySkipped).length} sessions fit the summary budget and get no summary`,
    '',
    '| level | tokens after/before | evidence turns cited | questions with all evidence cited |',
    '|---|---|---|---|',
    `| summary | ${(sum((entry) => entry.tokens.summary) / full).toFixed(3)} | ${percent(summary.turns)} | ${percent(summary.questions)} |`,
    `| quick_ref | ${(sum((entry) => entry.tokens.quickRef) / full).toFixed(4)} | ${percent(quickRef.turns)} | ${percent(quickRef.questions)} |`,
    '',
    '| split (conversations) | summary: evidence turns cited | quick_ref: evidence turns cited | quick_ref: questions with all evidence |',
    '|---|---|---|---|',
    ...(['tune', 'holdout'] as const).map((split) => {
      const [summaryKept, quickKept] = [kept('summary', split), kept('quickRef', split)]
      const names = split === 'tune' ? '26, 30, 41' : '42, 43'
      return `| ${split} (${names}) | ${percent(summaryKept.turns)} | ${percent(quickKept.turns)} | ${percent(quickKept.questions)} |`
    }),
    '',
    '| ages | tokens saved |',
    '|---|---|',
    `| every handoff past 90 days | ${percent(1 - sum((entry) => entry.tokens.quickRef) / full)} |`,
    `| spread evenly over a year | ${percent(spread(365))} |`,
    `| spread evenly over half a year | ${percent(spread(182))} |`,
    '',
  ].join('\n'),
)
