/**
 * What encoding reads from a session's files: its digest (main transcript, then its sub-agent and
 * compaction files) and, only for a model asked for its own patterns, the session's text units.
 */

import type { SessionDigest } from './core/digest/session-digest.ts'
import { SomnusError } from './core/errors.ts'
import type { Unit } from './core/model-results.ts'

/**
 * Encoding wants every gotcha and decision, not a brain-sized digest: a budget this large never
 * trims a real session (the largest in the dataset digests to about 3,000 tokens).
 */
const ENCODE_DIGEST_TOKENS = 100_000

/** The digest of the session at `transcriptPath`; throws TRANSCRIPT_UNREADABLE when it cannot be read. */
export async function sessionDigestFor(transcriptPath: string): Promise<SessionDigest> {
  const { readSessionDigest } = await import('./adapters/fs/session-digest-files.ts')
  const result = await readSessionDigest(transcriptPath, { maxTokens: ENCODE_DIGEST_TOKENS })
  if ('digest' in result) return result.digest
  if ('missing' in result)
    throw new SomnusError(
      'TRANSCRIPT_UNREADABLE',
      `No transcript at ${transcriptPath}: pass the path of a Claude Code session's .jsonl file.`,
    )
  throw new SomnusError('TRANSCRIPT_UNREADABLE', result.unreadable)
}

/** The session's prompts and closing words as units (main file, then sub-agent files), for a model. */
export async function sessionUnitsFor(transcriptPath: string): Promise<Unit[]> {
  const [{ transcriptFiles }, { subagentTranscriptPaths }, { TranscriptUnitCollector }] =
    await Promise.all([
      import('./compose-transcripts.ts'),
      import('./adapters/fs/transcript-files.ts'),
      import('./core/transcript/transcript-units.ts'),
    ])
  const collector = new TranscriptUnitCollector({ sinceMs: null })
  for (const path of [transcriptPath, ...(await subagentTranscriptPaths(transcriptPath))]) {
    const lines = await transcriptFiles.openTranscriptLines(path)
    if (lines) for await (const line of lines) collector.addLine(line)
  }
  collector.finish()
  return collector.units
}
