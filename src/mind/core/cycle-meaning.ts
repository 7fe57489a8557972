/**
 * A cycle's lines read for meaning, whatever the consolidating model: what each line is (an
 * order, a failure, routine output...), which failures a later success fixed, the lines that must
 * become observations (a person's orders and the creature's promises, from the cycle they are
 * given in, light cycles included), and a reflection that says what happened, what worked and
 * what is still open.
 */
import { contentStems, shorten } from '../../engine/core/extractive/text.ts'
import type { Priority } from '../../engine/core/model-results.ts'
import { clockTime } from './activity.ts'
import { MAX_OBSERVATION_CHARS, type ParsedObservation } from './consolidation-format.ts'
import {
  closes,
  isStanding,
  type LineKind,
  lineKind,
  meaningfulPart,
  reportsSuccess,
  subjectOf,
  voiceOf,
} from './meaning.ts'

/** One line of the cycle with its meaning. */
export interface MeaningfulLine {
  line: number
  speaker: string
  text: string
  time: string
  kind: LineKind
  /** A failure that a later line of the cycle fixed. */
  fixed: boolean
}

/** Reads the cycle's lines (the mind's own lines are left out by the caller). */
export function readCycle(
  activity: readonly { line: number; t: string; speaker: string; text: string }[],
): MeaningfulLine[] {
  const lines = activity.map(({ line, t, speaker, text }) => ({
    line,
    speaker,
    text,
    time: clockTime(t),
    kind: lineKind(text, voiceOf(speaker)),
    fixed: false,
  }))
  lines.forEach((item, index) => {
    if (item.kind !== 'failure') return
    item.fixed = lines.slice(index + 1).some((later) => closes(later, item))
  })
  return lines
}

/** The level a line earns by its meaning, or null when its meaning does not decide it. */
export function levelByMeaning(item: MeaningfulLine): Priority | null {
  if (isStanding(item.kind) || item.kind === 'revocation') return 'RED'
  if (item.kind === 'failure') return item.fixed ? 'YLW' : 'RED'
  if (item.kind === 'result') return 'YLW'
  if (item.kind === 'routine') return 'GRN'
  return null
}

/**
 * `observations` with every order, commitment and revocation of the cycle in it as RED (a model
 * that left one out or ranked it low is corrected); with `failures`, unfixed failures too (a
 * light dream keeps only what matters).
 */
export function keepWhatMatters(
  observations: readonly ParsedObservation[],
  cycle: readonly MeaningfulLine[],
  options: { failures: boolean; results?: boolean },
): ParsedObservation[] {
  // An unfixed failure is kept once per subject: the newest report of it.
  const newestFailure = new Map<string, number>()
  for (const item of cycle) {
    if (item.kind === 'failure' && !item.fixed) {
      newestFailure.set([...subjectOf(item.text)].sort().join(' '), item.line)
    }
  }
  const failures = new Set(newestFailure.values())
  const must = cycle.filter(
    (item) =>
      isStanding(item.kind) ||
      item.kind === 'revocation' ||
      (options.failures && failures.has(item.line)) ||
      (options.results === true && item.kind === 'result'),
  )
  const mustLines = new Set(must.map((item) => item.line))
  const out = observations.map((observation) => {
    const standing = cycle.find(
      (item) =>
        observation.lines.includes(item.line) &&
        mustLines.has(item.line) &&
        (isStanding(item.kind) || item.kind === 'revocation'),
    )
    if (!standing) return observation
    // The order itself is in the observation, whatever else of its line was kept.
    const part = meaningfulPart(standing.text, standing.kind).replace(/\s+/g, ' ').trim()
    const said = new Set(contentStems(observation.text))
    const named = contentStems(part).filter((stem) => said.has(stem)).length
    // A model's own wording of the order (most of its words) stands; else the order is added.
    const text =
      observation.text.includes(part) || named >= 3 || named >= contentStems(part).length / 2
        ? observation.text
        : shorten(
            `${standing.speaker}: ${part} ${observation.text.replace(`${standing.speaker}: `, '')}`,
            MAX_OBSERVATION_CHARS - 1,
          )
    return { ...observation, priority: 'RED' as Priority, text }
  })
  const cited = new Set(out.flatMap((observation) => observation.lines))
  for (const item of must) {
    if (cited.has(item.line)) continue
    out.push({
      priority: levelByMeaning(item) ?? 'RED',
      time: item.time,
      text: shorten(
        `${item.speaker}: ${meaningfulPart(item.text, item.kind).replace(/\s+/g, ' ').trim()}`,
        MAX_OBSERVATION_CHARS - 1,
      ),
      lines: [item.line],
    })
  }
  const order: Priority[] = ['RED', 'YLW', 'GRN']
  return order.flatMap((level) => out.filter((observation) => observation.priority === level))
}

/** How many items each part of the reflection names. */
const NAMED = 3
const NAMED_CHARS = 110

/**
 * The reflection: what happened (the cycle's most important observations), what worked
 * (results, fixes, successes), what is still open (orders, promises, unfixed failures); and the
 * next priority: the newest open order or promise, else the newest unfixed failure.
 */
export function reflectOnCycle(
  observations: readonly ParsedObservation[],
  cycle: readonly MeaningfulLine[],
  previousPriority: string | null,
): { reflection: string; priority: string } {
  const said = (items: readonly { speaker: string; text: string }[]) =>
    items
      .slice(0, NAMED)
      .map((item) =>
        shorten(`${item.speaker}: ${item.text.replace(/\s+/g, ' ').trim()}`, NAMED_CHARS),
      )
      .join('; ')
  const actions = cycle.filter((item) => voiceOf(item.speaker) === 'tool').length
  const top = observations.slice(0, NAMED).map((item) => shorten(item.text, NAMED_CHARS))
  const worked = cycle
    .filter(
      (item) =>
        item.kind === 'result' ||
        (voiceOf(item.speaker) === 'tool' && item.kind !== 'failure' && reportsSuccess(item.text)),
    )
    .reverse()
  const fixed = cycle.filter((item) => item.kind === 'failure' && item.fixed)
  const open = [
    ...cycle.filter((item) => isStanding(item.kind)).reverse(),
    ...cycle.filter((item) => item.kind === 'failure' && !item.fixed).reverse(),
  ]
  const parts = [
    `What happened (${count(actions, 'action')}, ${count(cycle.length - actions, 'message')}): ${top.length > 0 ? top.join('; ') : 'nothing worth keeping'}.`,
    worked.length + fixed.length > 0
      ? `What worked: ${said(worked)}${fixed.length > 0 ? `${worked.length > 0 ? '; ' : ''}fixed ${fixed.length} failure(s) (${said(fixed)})` : ''}.`
      : 'Nothing was confirmed to work.',
    open.length > 0 ? `Still open: ${said(open)}.` : 'Nothing from this cycle is left open.',
  ]
  const next = open[0]
  return {
    reflection: parts.join('\n'),
    priority: next
      ? shorten(`${next.speaker}: ${next.text.replace(/\s+/g, ' ').trim()}`, 200)
      : (previousPriority ?? 'Choose the next goal.'),
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
