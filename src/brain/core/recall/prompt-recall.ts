/**
 * Prompt-time recall (the UserPromptSubmit hook): the few memory lines most relevant to the
 * prompt, each with its `file:line`, only when they clearly bear on it, never one the session's
 * SessionStart snapshot already showed. It runs on every prompt: it says nothing unless sure.
 */
import { normalizedText } from '../../../engine/core/recall/brain-entries.ts'
import { queryTerms } from '../../../engine/core/recall/recall-terms.ts'

/** The most hits, and characters in all, the hook adds to a prompt. */
export const PROMPT_RECALL_LIMITS = { hits: 5, chars: 1500 } as const

/** Terms of a prompt that count (a pasted log would otherwise make every line relevant). */
const MAX_PROMPT_TERMS = 24
/** Shown lines shorter than this are headings and labels, not facts. */
const MIN_SHOWN_CHARS = 20

/** A hit as the prompt hook sees it. */
export interface PromptHit {
  location: string
  text: string
  snippet: string
}

/** The terms of a prompt recall searches with (at most MAX_PROMPT_TERMS, in order). */
export function promptTerms(prompt: string): string[] {
  return queryTerms(prompt).slice(0, MAX_PROMPT_TERMS)
}

/**
 * True when `text` clearly bears on a prompt with `terms`: it holds at least two of them (one
 * when the prompt has only one or names a code name, e.g. `load_session_messages`), and at least
 * a third of them.
 */
export function aboveFloor(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false
  const have = new Set(queryTerms(text))
  const matched = terms.filter((term) => have.has(term))
  const codeName = matched.some((term) => /[_.\-/:]/.test(term))
  const least = terms.length === 1 || codeName ? 1 : 2
  return matched.length >= Math.max(least, Math.ceil(terms.length / 3))
}

/** The lines of a SessionStart text, in the form `alreadyShown` compares (facts only). */
export function shownLines(snapshot: string): string[] {
  return snapshot
    .split('\n')
    .map((line) => normalizedText(line.replace(/<!--[\s\S]*?-->/g, ' ').replace(/…\s*$/, '')))
    .filter((line) => line.length >= MIN_SHOWN_CHARS)
}

/** True when the snapshot showed `text` (whole, or clipped to a prefix of it). */
export function alreadyShown(text: string, shown: readonly string[]): boolean {
  const normal = normalizedText(text)
  if (normal.length === 0) return true
  return shown.some((line) => line.includes(normal) || normal.startsWith(line))
}

/** The block the hook prints, or null when no hit is left: at most 5 lines, 1,500 characters. */
export function renderPromptRecall(hits: readonly PromptHit[]): string | null {
  const head =
    '[somnus] From memory (check before relying on it; `somnus recall <words>` for more):'
  const lines: string[] = []
  let used = head.length
  for (const hit of hits.slice(0, PROMPT_RECALL_LIMITS.hits)) {
    const prefix = `\n- ${hit.location}: `
    const room = PROMPT_RECALL_LIMITS.chars - used - prefix.length
    if (room < 40) break
    const text =
      hit.snippet.length > room ? `${hit.snippet.slice(0, room - 1).trimEnd()}…` : hit.snippet
    lines.push(`${prefix}${text}`)
    used += prefix.length + text.length
  }
  return lines.length === 0 ? null : `${head}${lines.join('')}`
}
