/**
 * The snapshot's Recent Sessions: one line per recent session digest, newest first, so a new
 * session knows what the last ones did and where the whole digest is.
 */
import { clip, inlineText } from '../../../engine/core/markdown-text.ts'
import { block, moreLine, plural } from './section-text.ts'
import type { DigestSummary, SectionDraft } from './snapshot-types.ts'

/** Digests the full form lists; the summary form keeps fewer. */
export const RECENT_DIGESTS = 5
const SUMMARY_DIGESTS = 3
/** Longest one-liner shown. */
const ONE_LINER_CHARS = 300

/** Recent digests, newest first (the caller passes at most a few, newest first). */
export function recentSessionsSection(
  digests: readonly DigestSummary[],
  total: number,
): SectionDraft {
  const draft = { name: 'Recent Sessions', importance: 8.5, head: false }
  if (digests.length === 0) return { ...draft, full: '', summary: '', line: '' }
  const folder = '_agent_context/knowledge/sessions/'
  const render = (digest: DigestSummary) => {
    const { branch, text } = oneLiner(digest)
    return `- ${digest.slug}${branch}: ${text ? clip(inlineText(text), ONE_LINER_CHARS) : 'no summary'}`
  }
  const more = (shown: number) =>
    total > shown ? [moreLine(total - shown, 'session digests', `read ${folder}`)] : []
  const title = `Recent Sessions (digests in ${folder})`
  const fewer = digests.slice(0, SUMMARY_DIGESTS)
  return {
    ...draft,
    full: block(title, [...digests.map(render), ...more(digests.length)]),
    summary: block(title, [...fewer.map(render), ...more(fewer.length)]),
    line: `- Recent Sessions: ${plural(total, 'session digest')} in ${folder} (newest: ${digests[0]?.slug})`,
  }
}

/**
 * The one-liner without the day the slug already shows: `2026-02-11 spotter-gqc: Asked…` becomes
 * ` (spotter-gqc)` and `Asked…`; a detached `HEAD` names no branch and is dropped.
 */
function oneLiner(digest: DigestSummary): { branch: string; text: string | null } {
  if (digest.summary === null) return { branch: '', text: null }
  const lead = /^(\d{4}-\d{2}-\d{2})(?: ([^\s:]+))?: /.exec(digest.summary)
  if (!lead || !digest.slug.startsWith(lead[1] as string))
    return { branch: '', text: digest.summary }
  const branch = lead[2] && lead[2] !== 'HEAD' ? ` (${lead[2]})` : ''
  return { branch, text: digest.summary.slice(lead[0].length) }
}
