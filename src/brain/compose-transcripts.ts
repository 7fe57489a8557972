/**
 * Transcript reading, wired apart from compose.ts so a command that only reads transcripts
 * (`transcript stats <path>`) starts without loading the brain, its settings and their schemas
 * (~10 ms). compose.ts re-exports both.
 */
import type { transcriptFiles as diskTranscripts } from '../engine/adapters/fs/transcript-files.ts'
import type { AnalyzeSession } from '../engine/ports/session-transcripts.ts'

/** The transcript reader, loaded on first use: most hook runs (SessionStart) never read one. */
const transcripts = () => import('../engine/adapters/fs/transcript-files.ts')

/** Reads and scores one session's transcript on disk (Stop, SessionEnd, pending scores). */
export const analyzeSession: AnalyzeSession = async (...args) =>
  (await transcripts()).analyzeSession(...args)

/** Transcript reading on disk, for the transcript commands. */
export const transcriptFiles: typeof diskTranscripts = {
  analyzeSession,
  analyzeTranscriptFile: async (...args) => (await transcripts()).analyzeTranscriptFile(...args),
  locateTranscript: async (...args) => (await transcripts()).locateTranscript(...args),
  openTranscriptLines: async (...args) => (await transcripts()).openTranscriptLines(...args),
}
