/**
 * A consolidation's activity fitted to a token budget, so no model is sent a prompt it would
 * refuse: the longest lines are clipped first (tool outputs before what people said), each down
 * to a common cap, keeping their head and tail and their line number (the source stays citable,
 * and the whole line is in conversation.jsonl).
 */
import { countTokens } from '../../engine/core/tokens.ts'
import type { ActivityLine } from './consolidation-format.ts'

/** Tokens of a line's prefix (`[12] 09:32 tool bash: `) and newline, about. */
const LINE_OVERHEAD = 12
/** Least tokens a clipped line keeps. */
const MIN_LINE_TOKENS = 24
/** Characters per token when cutting (o200k on English and code: ~4). */
const CHARS_PER_TOKEN = 4
const PASSES = 6

/** The activity within `budgetTokens`; unchanged when it fits. */
export function fitActivity(
  activity: readonly ActivityLine[],
  budgetTokens: number,
): ActivityLine[] {
  const costs = activity.map((item) => countTokens(item.text))
  const total = (lines: readonly number[]) =>
    lines.reduce((sum, cost) => sum + cost + LINE_OVERHEAD, 0)
  if (total(costs) <= budgetTokens) return [...activity]
  let lines = [...activity]
  let budget = budgetTokens
  for (let pass = 0; pass < PASSES; pass += 1) {
    // Tool outputs first: clip them alone when that is enough, else every line to one cap.
    const tools = activity.map(
      (item) => item.speaker === 'tool' || item.speaker.startsWith('tool '),
    )
    const fixed = costs.reduce(
      (sum, cost, index) => sum + (tools[index] ? 0 : cost) + LINE_OVERHEAD,
      0,
    )
    const toolCount = tools.filter(Boolean).length
    const onlyTools = toolCount > 0 && budget - fixed >= toolCount * MIN_LINE_TOKENS
    const cap = onlyTools
      ? waterLevel(
          costs.filter((_, index) => tools[index]),
          budget - fixed,
        )
      : waterLevel(costs, budget - activity.length * LINE_OVERHEAD)
    lines = activity.map((item, index) =>
      (onlyTools ? tools[index] : true) && (costs[index] ?? 0) > cap ? clipped(item, cap) : item,
    )
    const spent = total(lines.map((item) => countTokens(item.text)))
    if (spent <= budgetTokens) return lines
    budget = Math.floor((budget * budgetTokens) / spent) - 1
  }
  return lines
}

/** The highest per-line cap at which the lines' costs, each capped, fit in `room`. */
function waterLevel(costs: readonly number[], room: number): number {
  const sorted = [...costs].sort((left, right) => left - right)
  let left = room
  for (let index = 0; index < sorted.length; index += 1) {
    const share = Math.floor(left / (sorted.length - index))
    if ((sorted[index] ?? 0) > share) return Math.max(MIN_LINE_TOKENS, share)
    left -= sorted[index] ?? 0
  }
  return Math.max(MIN_LINE_TOKENS, sorted.at(-1) ?? MIN_LINE_TOKENS)
}

/** The line cut to about `cap` tokens: its head and tail, and what was cut, by its line. */
function clipped(item: ActivityLine, cap: number): ActivityLine {
  const keep = Math.max(MIN_LINE_TOKENS, cap - 16) * CHARS_PER_TOKEN
  const head = item.text.slice(0, Math.ceil(keep * 0.7))
  const tail = item.text.slice(item.text.length - Math.floor(keep * 0.3))
  const cut = item.text.length - head.length - tail.length
  if (cut <= 0) return item
  return {
    ...item,
    text: `${head} … [${cut} characters clipped: conversation.jsonl line ${item.line}] … ${tail}`,
  }
}
