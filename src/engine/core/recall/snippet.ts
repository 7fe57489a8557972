/**
 * The part of a hit's text worth showing: the whole text when it fits, else the window of the
 * budget that holds the most query terms, cut at word boundaries and marked with an ellipsis.
 */

import { recallTerms } from './recall-terms.ts'
import { patternsFor } from './text-patterns.ts'

const ELLIPSIS = '…'

/** At most `maxChars` of `text` (whitespace runs folded), around the terms of `terms` it holds. */
export function snippetOf(text: string, terms: readonly string[], maxChars: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= maxChars) return flat
  if (maxChars < 2) return flat.slice(0, Math.max(0, maxChars))
  const wanted = new Set(terms)
  // A word yields a term only if it holds the term's first two letters (a stem changes only its
  // ending): most words are passed over without stemming them.
  const probes = [...new Set(terms.map((term) => term.slice(0, 2)))]
  // Where each matching word starts and ends, and how many distinct terms it carries.
  const matches: { start: number; end: number; terms: string[] }[] = []
  for (const match of flat.matchAll(patternsFor(flat).compound)) {
    const lower = match[0].toLowerCase()
    if (!probes.some((probe) => lower.includes(probe))) continue
    const found = recallTerms(match[0]).filter((term) => wanted.has(term))
    if (found.length > 0)
      matches.push({ start: match.index, end: match.index + match[0].length, terms: found })
  }
  const room = maxChars - 2 * ELLIPSIS.length
  let start = 0
  if (matches.length > 0) {
    // The window starting at a match that covers the most distinct terms, earliest on a tie.
    let best = -1
    for (let first = 0; first < matches.length; first += 1) {
      const from = matches[first]?.start ?? 0
      const covered = new Set<string>()
      for (let next = first; next < matches.length; next += 1) {
        const match = matches[next]
        if (match === undefined || match.end - from > room) break
        for (const term of match.terms) covered.add(term)
      }
      if (covered.size > best) {
        best = covered.size
        start = from
      }
    }
    // A little lead-in, so the match is read in its sentence.
    start = Math.max(0, start - Math.floor(room / 5))
  }
  if (start > 0) {
    const space = flat.indexOf(' ', start)
    start = space === -1 || space - start > 20 ? start : space + 1
  }
  const lead = start > 0 ? ELLIPSIS : ''
  let end = Math.min(flat.length, start + maxChars - lead.length)
  if (end < flat.length) {
    end = start + maxChars - lead.length - ELLIPSIS.length
    const space = flat.lastIndexOf(' ', end)
    if (space > start + (end - start) / 2) end = space
  }
  const tail = end < flat.length ? ELLIPSIS : ''
  return `${lead}${flat.slice(start, end).trimEnd()}${tail}`
}
