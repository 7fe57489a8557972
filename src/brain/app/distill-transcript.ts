/** `transcript distill`: the structural summary of a session, from where the last sleep stopped. */
import { createDistiller } from '../../engine/core/transcript/distill.ts'
import {
  resolveTranscriptTarget,
  type TranscriptFileAccess,
  type TranscriptSearch,
  transcriptMissing,
} from './transcript-target.ts'

/** What to distill. */
export interface DistillRequest extends TranscriptSearch {
  /** A transcript path or a session id. */
  target: string
  /**
   * Leave out records at or before this ISO time. Default: when the session was last consolidated
   * (the newest sleep-history entry that lists it), so consolidated parts are not repeated.
   */
  since?: string
  /** Distill the whole transcript, ignoring when it was last consolidated. */
  all?: boolean
  /** Keep long texts, files and edits whole. */
  full: boolean
}

/** The markdown, the file it came from, and the boundary used (null: the whole transcript). */
export interface Distilled {
  markdown: string
  path: string
  since: string | null
}

/** Distills the transcript `request.target` names; NOT_FOUND when there is none. */
export async function distillTranscript(
  request: DistillRequest,
  files: TranscriptFileAccess,
): Promise<Distilled> {
  const { path, sessionId } = await resolveTranscriptTarget(request.target, request, files)
  const since = request.since ?? (request.all ? null : await lastConsolidated(request, sessionId))
  const distiller = createDistiller({
    sessionId,
    full: request.full,
    ...(since === null ? {} : { since }),
  })
  const lines = await files.openTranscriptLines(path)
  if (lines === null) throw transcriptMissing(path)
  for await (const line of lines) distiller.addLine(line)
  return { markdown: distiller.toMarkdown(), path, since }
}

/** When the newest sleep that consumed `sessionId` ran, or null (never consolidated, or no brain). */
async function lastConsolidated(
  search: TranscriptSearch,
  sessionId: string,
): Promise<string | null> {
  const brain = await search.findBrain()
  if (brain === null) return null
  const history = await brain.state.readHistory() // newest first
  const entry = history.find((item) => item.session_ids.includes(sessionId))
  return entry?.consolidated_at ?? null
}
