/**
 * Text handling for model replies: find the JSON a model wrapped in prose or code fences, and cut a
 * summary to a token budget at a sentence boundary.
 */
import { countTokens } from '../../core/tokens.ts'
import { safeParseJson } from './post-json.ts'

/**
 * The JSON value in a model reply. Models asked for "only JSON" still add code fences or a line of
 * prose, so this tries the whole reply, then the first fenced block, then the outermost braces.
 */
export function extractJson(reply: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = reply.trim()
  const candidates = [trimmed]
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(trimmed)
  if (fenced?.[1] !== undefined) candidates.push(fenced[1].trim())
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = trimmed.indexOf(open)
    const end = trimmed.lastIndexOf(close)
    if (start !== -1 && end > start) candidates.push(trimmed.slice(start, end + 1))
  }
  for (const candidate of candidates) {
    const parsed = safeParseJson(candidate)
    if (parsed.ok) return parsed
  }
  return { ok: false }
}

/**
 * The longest prefix of `text` within `budgetTokens`, cut after the last whole sentence that fits.
 * This is the last resort when a model overshoots twice: the budget is a promise, so a shorter
 * summary beats an honest-but-oversized one. Falls back to whole words, then characters, when not
 * even the first sentence fits.
 */
export function cutToBudget(text: string, budgetTokens: number): string {
  if (countTokens(text) <= budgetTokens) return text
  if (budgetTokens <= 0) return ''
  const bySentence = longestPrefix(segments(text, 'sentence'), budgetTokens)
  if (bySentence !== '') return bySentence
  const byWord = longestPrefix(segments(text, 'word'), budgetTokens)
  if (byWord !== '') return byWord
  return longestCharacterPrefix(text, budgetTokens)
}

function segments(text: string, granularity: 'sentence' | 'word'): string[] {
  const segmenter = new Intl.Segmenter('en', { granularity })
  return Array.from(segmenter.segment(text), (part) => part.segment)
}

/** Token counts are not additive across a join, so each candidate prefix is counted whole. */
function longestPrefix(parts: string[], budgetTokens: number): string {
  let kept = ''
  for (const part of parts) {
    const candidate = kept + part
    if (countTokens(candidate.trimEnd()) > budgetTokens) break
    kept = candidate
  }
  return kept.trimEnd()
}

function longestCharacterPrefix(text: string, budgetTokens: number): string {
  let low = 0
  let high = text.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (countTokens(text.slice(0, middle)) <= budgetTokens) low = middle
    else high = middle - 1
  }
  return text.slice(0, low).trimEnd()
}
