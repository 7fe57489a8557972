/**
 * A session digest as the brain keeps it: the rendered digest, with its one-liner in the
 * frontmatter (`summary:`), so the snapshot lists recent sessions without reading whole digests.
 */
import type { DigestItem, SessionDigest } from '../digest/session-digest.ts'
import { updateFrontmatter } from '../frontmatter.ts'

/** The digest document's text. */
export function renderDigestDocument(digest: SessionDigest): string {
  return updateFrontmatter(renderDigest(digest), { summary: oneLinerOf(digest) })
}

// Stand-in until the digest renderer of core/digest lands (issue 8, part A).
function renderDigest(digest: SessionDigest): string {
  const bullet = (item: DigestItem) => `- ${item.text} <!-- src: ${item.sources.join(', ')} -->`
  const section = (title: string, items: readonly DigestItem[]) =>
    items.length === 0 ? [] : ['', `## ${title}`, ...items.map(bullet)]
  return [
    '---',
    `session: ${digest.sessionId}`,
    `date: ${digest.date ?? 'unknown'}`,
    '---',
    '',
    ...(digest.summary ? [`**Summary:** ${digest.summary.text}`] : []),
    ...(digest.changes.length > 0
      ? [
          '',
          '## Changes',
          ...digest.changes.flatMap((area) => [`**${area.area}**`, ...area.items.map(bullet)]),
        ]
      : []),
    ...section('Commits', digest.commits),
    ...section('Decisions', digest.decisions),
    ...section('Gotchas', digest.gotchas),
    ...section('Done', digest.done),
    ...section('Open', digest.open),
    ...section('Working style', digest.preferences),
    '',
  ].join('\n')
}

function oneLinerOf(digest: SessionDigest): string {
  return digest.summary?.text ?? `${digest.changes.length} areas changed`
}
