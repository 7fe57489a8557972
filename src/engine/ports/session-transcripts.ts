/** Reading a Claude Code session's transcript (and its sub-agent files) into exact counts. */
import type { TranscriptAnalysis } from '../core/transcript/transcript-analysis.ts'

/** What one look at a session's transcript found. */
export type SessionAnalysisResult =
  /** Read: the counts, and every file that went into them (main transcript first). */
  | { analysis: TranscriptAnalysis; files: string[] }
  /** Not on disk (yet): Claude Code may flush it later. */
  | { missing: true }
  /** Deliberately not read, with the reason (e.g. over the size cap). */
  | { skipped: string }

/**
 * Analyses the session whose main transcript is `transcriptPath`, folding in
 * `<session>/subagents/agent-*.jsonl`. Records at or before `since` are not counted (already
 * consolidated); files over `maxBytes` are skipped. Adapter: `engine/adapters/fs/transcript-files.ts`.
 */
export type AnalyzeSession = (
  transcriptPath: string,
  options: { since?: string; maxBytes?: number },
) => Promise<SessionAnalysisResult>
