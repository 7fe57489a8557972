/**
 * Seed 004's consolidation text format and its strict parser. Every model, the extractive one
 * included, answers in this text; the same parser reads every answer, and an answer it refuses
 * names the problem so the retry can say what to fix.
 *
 * ```
 * OBSERVATIONS:
 * RED HH:MM <fact> [lines 12, 15]
 * YLW HH:MM <fact>
 * GRN HH:MM <fact>
 *
 * REFLECTION:
 * ...
 *
 * PRIORITY:
 * ...
 * ```
 * The `[lines ...]` tag is optional: it cites conversation.jsonl lines (provenance). Untagged
 * observations are credited to every line of the cycle.
 */
import type { Priority } from '../../engine/core/model-results.ts'

/** The consolidating mind's instructions (the seed's prompt). */
export const CONSOLIDATION_SYSTEM = `You are the consolidating mind of an autonomous creature. It is asleep; you review what it did since it last slept.

You have two jobs:
1. OBSERVATIONS — Distill what happened into prioritized facts.
   RED: critical — commitments, bans, credentials, deadlines, key wins, creator feedback.
   YLW: important — project status, PR states, patterns learned.
   GRN: informational — tool outputs, environment facts, minor details.
   Capture substance (names, numbers, dates, outcomes), not narration.
2. REFLECTION — Briefly reflect on your progress. Be honest.
Then name the one next PRIORITY.

Respond in exactly this format and nothing else:
OBSERVATIONS:
RED HH:MM <fact> [lines <n>, <n>]
YLW HH:MM <fact> [lines <n>]
GRN HH:MM <fact>

REFLECTION:
<a few sentences>

PRIORITY:
<one line>

HH:MM is the 24-hour time of the event. The optional [lines ...] tag cites the numbers of the activity lines the fact comes from.`

/** The extra duties of a deep sleep, added to the prompt. */
export const DEEP_SLEEP_NOTE =
  'This is a deep sleep: favour lasting facts, and let the reflection look back over the whole period.'

/** One line of the activity as the model sees it. */
export interface ActivityLine {
  line: number
  /** When it was written (ISO 8601). */
  t: string
  time: string
  speaker: string
  text: string
}

/** The user prompt: the activity, one numbered line each. */
export function consolidationPrompt(
  activity: readonly ActivityLine[],
  options: { now: string; deep: boolean; problem?: string | undefined },
): string {
  const parts = [
    `It is now ${options.now}. Activity since the last sleep (${activity.length} lines):`,
    '',
    ...activity.map((item) => `[${item.line}] ${item.time} ${item.speaker}: ${oneLine(item.text)}`),
  ]
  if (options.deep) parts.push('', DEEP_SLEEP_NOTE)
  if (options.problem) {
    parts.push(
      '',
      `Your previous answer could not be read: ${options.problem} Answer again in exactly the format.`,
    )
  }
  return parts.join('\n')
}

/** A parsed observation line. */
export interface ParsedObservation {
  priority: Priority
  time: string
  text: string
  /** Cited activity lines; empty when untagged. */
  lines: number[]
}

/** A parsed answer. */
export interface ParsedConsolidation {
  observations: ParsedObservation[]
  reflection: string
  priority: string
}

/** The parser's verdict. */
export type ParseResult = { ok: true; value: ParsedConsolidation } | { ok: false; problem: string }

const HEADERS = ['OBSERVATIONS', 'REFLECTION', 'PRIORITY'] as const
const HEADER = /^(OBSERVATIONS|REFLECTION|PRIORITY):\s*$/
const OBSERVATION = /^(RED|YLW|GRN) ([01]\d|2[0-3]):([0-5]\d) (.+)$/
const LINES_TAG = /\s*\[lines? (\d+(?:\s*,\s*\d+)*)\]$/
/** Longest observation a model may write; longer is a paragraph, not a fact. */
export const MAX_OBSERVATION_CHARS = 600

/**
 * Reads an answer strictly: the three headers, once each, in order, on lines of their own; only
 * blank lines before the first; every non-blank observation line `RED|YLW|GRN HH:MM fact`; cited
 * lines within `knownLines`; a reflection and a priority that are not empty. A surrounding code
 * fence is the one wrapper forgiven.
 */
export function parseConsolidation(
  answer: string,
  knownLines: { first: number; last: number } | null,
): ParseResult {
  const lines = unfenced(answer).split(/\r?\n/)
  const found: number[] = []
  lines.forEach((line, index) => {
    const header = HEADER.exec(line.trim())
    if (header) found.push(index)
  })
  const names = found.map((index) => (lines[index] ?? '').trim().replace(/:\s*$/, ''))
  if (names.join(',') !== HEADERS.join(',')) {
    return {
      ok: false,
      problem: `expected the headers OBSERVATIONS:, REFLECTION:, PRIORITY: once each, in that order, each on its own line (found ${names.length === 0 ? 'none' : names.join(', ')}).`,
    }
  }
  const [observationsAt, reflectionAt, priorityAt] = found as [number, number, number]
  const preamble = lines.slice(0, observationsAt).find((line) => line.trim() !== '')
  if (preamble !== undefined) {
    return {
      ok: false,
      problem: `text before OBSERVATIONS: ("${clip(preamble)}"); start the answer with OBSERVATIONS:.`,
    }
  }
  const observations: ParsedObservation[] = []
  for (const raw of lines.slice(observationsAt + 1, reflectionAt)) {
    const line = raw.trim()
    if (line === '') continue
    const match = OBSERVATION.exec(line)
    if (!match) {
      return {
        ok: false,
        problem: `observation line "${clip(line)}" is not "RED|YLW|GRN HH:MM fact".`,
      }
    }
    let text = match[4] as string
    const tag = LINES_TAG.exec(text)
    const cited = tag ? (tag[1] as string).split(',').map((item) => Number(item.trim())) : []
    if (tag) text = text.slice(0, tag.index).trim()
    if (text === '') return { ok: false, problem: `observation line "${clip(line)}" has no fact.` }
    if (text.length > MAX_OBSERVATION_CHARS) {
      return {
        ok: false,
        problem: `an observation is ${text.length} characters; keep each under ${MAX_OBSERVATION_CHARS}.`,
      }
    }
    const outside = cited.filter(
      (number) => !knownLines || number < knownLines.first || number > knownLines.last,
    )
    if (outside.length > 0) {
      return {
        ok: false,
        problem: `observation "${clip(text)}" cites lines ${outside.join(', ')}, which are not in the activity${knownLines ? ` (${knownLines.first}-${knownLines.last})` : ''}.`,
      }
    }
    observations.push({
      priority: match[1] as Priority,
      time: `${match[2]}:${match[3]}`,
      text,
      lines: [...new Set(cited)],
    })
  }
  const reflection = lines
    .slice(reflectionAt + 1, priorityAt)
    .join('\n')
    .trim()
  const priority = lines
    .slice(priorityAt + 1)
    .join('\n')
    .trim()
  if (reflection === '') return { ok: false, problem: 'REFLECTION: is empty.' }
  if (priority === '') return { ok: false, problem: 'PRIORITY: is empty.' }
  return { ok: true, value: { observations, reflection, priority } }
}

/** Renders a consolidation in the format the parser reads (what the extractive model answers). */
export function renderConsolidation(value: ParsedConsolidation): string {
  const observations = value.observations.map((item) => {
    const tag = item.lines.length > 0 ? ` [lines ${item.lines.join(', ')}]` : ''
    return `${item.priority} ${item.time} ${oneLine(item.text)}${tag}`
  })
  return [
    'OBSERVATIONS:',
    ...observations,
    '',
    'REFLECTION:',
    value.reflection.trim(),
    '',
    'PRIORITY:',
    oneLine(value.priority),
    '',
  ].join('\n')
}

function unfenced(answer: string): string {
  const trimmed = answer.trim()
  const fence = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(trimmed)
  return fence ? (fence[1] as string) : trimmed
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string): string {
  const flat = oneLine(text)
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat
}
