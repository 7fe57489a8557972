/** Reading a Claude Code session's transcript (and its sub-agent files) into a session digest. */
import type { SessionDigest } from '../core/digest/session-digest.ts'

/** What one attempt to digest a session found. */
export type SessionDigestResult =
  /** Read: the digest of the records after `since`. */
  | { digest: SessionDigest }
  /** Not on disk (yet): Claude Code may flush it later. */
  | { missing: true }
  /** On disk but not readable (damaged, refused), with the reason. */
  | { unreadable: string }

/**
 * Digests the session whose main transcript is `transcriptPath`, folding in its sub-agent and
 * compaction files. Records at or before `since` were consolidated already and are left out.
 */
export type ReadSessionDigest = (
  transcriptPath: string,
  options: { since?: string },
) => Promise<SessionDigestResult>
