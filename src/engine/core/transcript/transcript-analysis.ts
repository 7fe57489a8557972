/** What one pass over a Claude Code transcript (and its sub-agent files) measures. */
import type { SessionMetrics } from '../scoring/scoring-policy.ts'

/** Exact counts from a structural reading of the JSONL: tool_use blocks of assistant messages, each id once. */
export interface TranscriptAnalysis extends SessionMetrics {
  /** Calls per tool name, e.g. `{ Bash: 12, Edit: 4 }`. */
  tool_counts: Record<string, number>
  /** Distinct assistant `message.id`s (one message is split over several lines). */
  assistant_messages: number
  /** Tool results carried by `user` records. */
  tool_results: number
  /** Tool results flagged `is_error`. */
  tool_errors: number
  /** Usage summed once per assistant `message.id`. */
  input_tokens: number
  output_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
  /** Slugs of `_agent_context/state/<slug>.md` tasks the session touched. */
  task_slug_list: string[]
  /** Size read, lines read, and lines that were not valid JSON (skipped). */
  bytes: number
  lines: number
  unparsable_lines: number
  /** Sub-agent transcript files folded into these counts. */
  subagent_files: number
  /** Calls that dispatched Somnus's own sleep sub-agent: not counted as tools (see SLEEP_AGENT_TYPES). */
  sleep_dispatches: number
  /** That sub-agent's transcript files, left out of every count. */
  sleep_subagent_files: number
  first_timestamp: string | null
  last_timestamp: string | null
}
