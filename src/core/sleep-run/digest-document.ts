/**
 * A session digest as the brain keeps it: the rendered digest, with its one-liner in the
 * frontmatter (`summary:`), so the snapshot lists recent sessions without reading whole digests.
 */
import { digestOneLiner, renderSessionDigest } from '../digest/render-session-digest.ts'
import type { SessionDigest } from '../digest/session-digest.ts'
import { updateFrontmatter } from '../frontmatter.ts'

/** The digest document's text. */
export function renderDigestDocument(digest: SessionDigest): string {
  return updateFrontmatter(renderSessionDigest(digest), { summary: digestOneLiner(digest) })
}
