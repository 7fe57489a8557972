/** Reading a Claude Code session's transcript files into a SessionDigest. */
import type { SessionDigest } from '../core/digest/session-digest.ts'

/** What reading a session for its digest found. */
export type SessionDigestResult =
  /** Read: the digest, and how many damaged lines were skipped (cut-off writes). */
  | { digest: SessionDigest; skippedLines: number }
  /** The main transcript is not on disk (yet). */
  | { missing: true }
  /** It exists but cannot be read or is damaged beyond use: keep the session pending. */
  | { unreadable: string }

/** How to read a session for its digest. */
export interface ReadSessionDigestOptions {
  /** ISO time: records at or before it were consolidated already and are left out. */
  since?: string
  /** The rendered digest's budget in tokens (default 2,500). */
  maxTokens?: number
  /** A main transcript larger than this is unreadable, not read (the brain's transcript_max_bytes). */
  maxBytes?: number
}

/**
 * Digests the session whose main transcript is `transcriptPath`, with its
 * `<session>/subagents/agent-*.jsonl` files (compaction runs included). Adapter:
 * `engine/adapters/fs/session-digest-files.ts`.
 */
export type ReadSessionDigest = (
  transcriptPath: string,
  options?: ReadSessionDigestOptions,
) => Promise<SessionDigestResult>
