/** Turns one look at a session's transcript into a ledger outcome: scored, skipped or pending. */

import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import type { TranscriptOutcome } from '../core/session-ledger.ts'
import type { Brain } from './brain.ts'

/**
 * Reads the transcript at `transcriptPath` (null: none given) counting only records after
 * `since`, and scores it with the brain's policy. A missing file or a read error leaves the score
 * pending (SessionStart retries); a file over `transcript_max_bytes` is booked at 0 with a note,
 * seed 000's safety cap (docs/design/origins.md). Never throws: problems go to `brain.warn`.
 */
export async function readSessionOutcome(
  brain: Brain,
  analyzeSession: AnalyzeSession,
  transcriptPath: string | null,
  since: string | null,
): Promise<TranscriptOutcome> {
  if (transcriptPath === null) return { kind: 'pending' }
  try {
    const result = await analyzeSession(transcriptPath, {
      ...(since === null ? {} : { since }),
      maxBytes: brain.config.transcript_max_bytes,
    })
    if ('missing' in result) return { kind: 'pending' }
    if ('skipped' in result) {
      brain.warn(`transcript skipped, booked at 0: ${transcriptPath}: ${result.skipped}`)
      return { kind: 'skipped', note: `transcript skipped: ${result.skipped}` }
    }
    const { analysis } = result
    return {
      kind: 'scored',
      change_count: analysis.change_count,
      tool_count: analysis.tool_count,
      score: scoringPolicyFor(brain.config.scoring).scoreSession(analysis),
      task_slugs: analysis.task_slug_list,
    }
  } catch (error) {
    brain.warn(`transcript unreadable, score left pending: ${transcriptPath}: ${messageOf(error)}`)
    return { kind: 'pending' }
  }
}

/** The message of any thrown value, on one line. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.replace(/\s+/g, ' ').trim()
}
