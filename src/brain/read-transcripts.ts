/**
 * The entry for reading transcripts without opening a brain, as `somnus transcript stats|distill`
 * does: exact counts, a distilled view, and the transcript files on disk. It lives apart from
 * create-somnus.ts, which every command loads, so that only the transcript command loads these.
 */
export { type Distilled, type DistillRequest, distillTranscript } from './app/distill-transcript.ts'
export {
  type TranscriptStats,
  type TranscriptStatsRequest,
  transcriptStats,
} from './app/transcript-stats.ts'
export type { TranscriptFileAccess, TranscriptSearch } from './app/transcript-target.ts'
export { transcriptFiles } from './compose-transcripts.ts'
