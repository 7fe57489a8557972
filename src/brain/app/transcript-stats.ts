/** `transcript stats`: exact counts of a session's transcript, with or without its sub-agents. */
import type { TranscriptAnalysis } from '../../engine/core/transcript/transcript-analysis.ts'
import {
  resolveTranscriptTarget,
  type TranscriptFileAccess,
  type TranscriptSearch,
  transcriptMissing,
} from './transcript-target.ts'

/** What to count. */
export interface TranscriptStatsRequest extends TranscriptSearch {
  /** A transcript path or a session id. */
  target: string
  /** Fold in `<session>/subagents/agent-*.jsonl` (default in the CLI). */
  subagents: boolean
}

/** The counts and the files they came from (main transcript first). */
export interface TranscriptStats {
  sessionId: string
  files: string[]
  analysis: TranscriptAnalysis
}

/** Counts the transcript `request.target` names; NOT_FOUND when there is none. */
export async function transcriptStats(
  request: TranscriptStatsRequest,
  files: TranscriptFileAccess,
): Promise<TranscriptStats> {
  const { path, sessionId } = await resolveTranscriptTarget(request.target, request, files)
  if (!request.subagents) {
    const analysis = await files.analyzeTranscriptFile(path, {})
    if (analysis === null) throw transcriptMissing(path)
    return { sessionId, files: [path], analysis }
  }
  const result = await files.analyzeSession(path, {})
  if ('missing' in result) throw transcriptMissing(path)
  if ('skipped' in result) throw new Error(`unexpected skip without a size cap: ${result.skipped}`)
  return { sessionId, files: result.files, analysis: result.analysis }
}
