/**
 * Session digests for `sleep run`, wired apart from compose.ts: the hook bundle includes every
 * module compose.ts reaches, and the digest builder (with the tokenizer it budgets by) has no
 * place on the hook path.
 */

import type { SessionDigestResult } from '../engine/ports/session-digests.ts'
import type { Brain } from './app/brain.ts'
import type { SessionRecord } from './core/sleep-state.ts'

/**
 * The digest's budget: with the lines it adds to the core files and the changelog (a few hundred
 * tokens), a session grows the brain by at most 3,000 tokens (bench/fact-recall.ts measures it).
 */
const DIGEST_TOKENS = 2_200

/**
 * Reads a session's transcript (main file, then its sub-agent and compaction files) as a digest
 * of the records after `since`, for `sleep run`. A missing main file is `missing`; one that
 * cannot be read is `unreadable`, so the session stays pending.
 */
export function composeReadDigest(
  brain: Brain,
): (session: SessionRecord, since: string | null) => Promise<SessionDigestResult> {
  return async (session, since) => {
    if (!session.transcript_path) return { missing: true }
    try {
      const { readSessionDigest } = await import('../engine/adapters/fs/session-digest-files.ts')
      return await readSessionDigest(session.transcript_path, {
        maxTokens: DIGEST_TOKENS,
        ...(since === null ? {} : { since }),
      })
    } catch (error) {
      brain.warn(`could not digest ${session.transcript_path}: ${(error as Error).message}`)
      return { unreadable: (error as Error).message }
    }
  }
}
