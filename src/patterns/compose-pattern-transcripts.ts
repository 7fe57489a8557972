/**
 * What encoding reads from a session's files: its digest (main transcript, then its sub-agent and
 * compaction files). A model asked for its own patterns reads the digest's material too.
 */

import type { SessionDigest } from '../engine/core/digest/session-digest.ts'
import { SomnusError } from '../engine/core/errors.ts'

/**
 * Encoding wants every gotcha and decision, not a brain-sized digest: a budget this large never
 * trims a real session (the largest in the dataset digests to about 3,000 tokens).
 */
const ENCODE_DIGEST_TOKENS = 100_000

/** The largest main transcript encoding reads: the brain's default transcript_max_bytes. */
export const ENCODE_TRANSCRIPT_MAX_BYTES = 50 * 1024 * 1024

/** The digest of the session at `transcriptPath`; throws TRANSCRIPT_UNREADABLE when it cannot be read. */
export async function sessionDigestFor(transcriptPath: string): Promise<SessionDigest> {
  const { readSessionDigest } = await import('../engine/adapters/fs/session-digest-files.ts')
  const result = await readSessionDigest(transcriptPath, {
    maxTokens: ENCODE_DIGEST_TOKENS,
    maxBytes: ENCODE_TRANSCRIPT_MAX_BYTES,
  })
  if ('digest' in result) return result.digest
  if ('missing' in result)
    throw new SomnusError(
      'TRANSCRIPT_UNREADABLE',
      `No transcript at ${transcriptPath}: pass the path of a Claude Code session's .jsonl file.`,
    )
  throw new SomnusError('TRANSCRIPT_UNREADABLE', result.unreadable)
}
