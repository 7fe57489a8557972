/** Folding sub-agent transcripts into their session's counts (dreamcontext's mergeAnalyses). */
import type { TranscriptAnalysis } from './transcript-analysis.ts'

/**
 * The session's counts: the main transcript plus each sub-agent file. Everything adds up except
 * `user_turns`, which only the main transcript has (a sub-agent's prompt comes from the agent,
 * not a person); slugs are united and the time span covers all files.
 */
export function mergeAnalyses(
  main: TranscriptAnalysis,
  subagents: readonly TranscriptAnalysis[],
): TranscriptAnalysis {
  const merged: TranscriptAnalysis = {
    ...main,
    tool_counts: { ...main.tool_counts },
    task_slug_list: [...main.task_slug_list],
  }
  const slugs = new Set(main.task_slug_list)
  for (const part of subagents) {
    merged.change_count += part.change_count
    merged.tool_count += part.tool_count
    merged.novel_tokens += part.novel_tokens
    merged.assistant_chars += part.assistant_chars
    merged.decision_markers += part.decision_markers
    merged.assistant_messages += part.assistant_messages
    merged.tool_results += part.tool_results
    merged.tool_errors += part.tool_errors
    merged.input_tokens += part.input_tokens
    merged.output_tokens += part.output_tokens
    merged.cache_creation_input_tokens += part.cache_creation_input_tokens
    merged.cache_read_input_tokens += part.cache_read_input_tokens
    merged.bytes += part.bytes
    merged.lines += part.lines
    merged.unparsable_lines += part.unparsable_lines
    merged.subagent_files += 1 + part.subagent_files
    merged.sleep_dispatches += part.sleep_dispatches
    merged.sleep_subagent_files += part.sleep_subagent_files
    for (const [name, count] of Object.entries(part.tool_counts)) {
      merged.tool_counts[name] = (merged.tool_counts[name] ?? 0) + count
    }
    for (const slug of part.task_slug_list) slugs.add(slug)
    merged.first_timestamp = earliest(merged.first_timestamp, part.first_timestamp)
    merged.last_timestamp = latest(merged.last_timestamp, part.last_timestamp)
  }
  merged.task_slug_list = [...slugs]
  merged.task_slugs = slugs.size
  merged.tool_counts = Object.fromEntries(
    Object.entries(merged.tool_counts).sort(([a], [b]) => (a < b ? -1 : 1)),
  )
  return merged
}

function earliest(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b
  return Date.parse(b) < Date.parse(a) ? b : a
}

function latest(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return a ?? b
  return Date.parse(b) > Date.parse(a) ? b : a
}
