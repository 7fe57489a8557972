/**
 * A session digest as the brain keeps it: the rendered digest, with its one-liner in the
 * frontmatter (`summary:`), so the snapshot lists recent sessions without reading whole digests.
 */
import { summaryGoal, summaryOutcome } from '../../../engine/core/digest/digest-summary.ts'
import { renderSessionDigest } from '../../../engine/core/digest/render-session-digest.ts'
import type { SessionDigest } from '../../../engine/core/digest/session-digest.ts'
import { updateFrontmatter } from '../../../engine/core/frontmatter.ts'
import { inlineText } from '../../../engine/core/markdown-text.ts'
import { sentencesOf } from './changelog-entries.ts'

/** The one-liner's text keeps whole sentences up to about this length. */
const ONE_LINER_CHARS = 200

/** The digest document's text. */
export function renderDigestDocument(digest: SessionDigest): string {
  return updateFrontmatter(renderSessionDigest(digest), { summary: sessionOneLiner(digest) })
}

/**
 * `<day> <branch>: <what came of the session> (<commits>, <areas>, <open>)`. What came of it,
 * not the request that opened it (the digest keeps both), in whole sentences: a new session reads
 * this line in its SessionStart budget, where a prompt quoted whole and a cut sentence cost the
 * most and say the least.
 */
export function sessionOneLiner(digest: SessionDigest): string {
  const files = digest.changes.reduce((sum, area) => sum + area.items.length, 0)
  const counts = [
    digest.commits.length > 0
      ? `${digest.commits.length} commit${digest.commits.length > 1 ? 's' : ''}`
      : '',
    files > 0
      ? `changes in ${digest.changes.length} area${digest.changes.length > 1 ? 's' : ''}`
      : '',
    digest.open.length > 0 ? `${digest.open.length} open` : '',
  ].filter(Boolean)
  const head = [digest.date, digest.branch].filter(Boolean).join(' ')
  const text = digest.summary === null ? '' : inlineText(digest.summary.text)
  // A table flattened into the summary (`pushed: Commit · Task · Description.`) is no sentence.
  const outcome = summaryOutcome(text).replace(/:\s*[^.:]*\s·\s[^.]*\./g, '.')
  const goal = summaryGoal(text)
  const said = wholeSentences(outcome) || (goal === '' ? '' : wholeSentences(`${goal}.`))
  const suffix = counts.length > 0 ? ` (${counts.join(', ')})` : ''
  return `${head === '' ? digest.sessionId.slice(0, 8) : head}: ${said || 'no summary'}${suffix}`
}

/**
 * The leading whole sentences within ONE_LINER_CHARS; a first sentence longer than that keeps
 * its clauses up to the last `:`, `;` or ` — ` that fits, never a cut word.
 */
function wholeSentences(text: string): string {
  const kept: string[] = []
  for (const sentence of sentencesOf(text)) {
    if ([...kept, sentence].join(' ').length > ONE_LINER_CHARS) break
    kept.push(sentence)
  }
  if (kept.length > 0 || text === '') return kept.join(' ')
  const head = text.slice(0, ONE_LINER_CHARS)
  const boundary = Math.max(head.lastIndexOf(': '), head.lastIndexOf('; '), head.lastIndexOf(' — '))
  return boundary > 40 ? `${head.slice(0, boundary).trim()}.` : ''
}
