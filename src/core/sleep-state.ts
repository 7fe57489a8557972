/**
 * The sleep ledger kept in `_agent_context/state/.sleep.json`, with the field names of seeds 000/001
 * and of the agentcontext code behind them (research/seed-systems.md 1.3). Parsed with zod/mini
 * because this module sits on the hook path, where every millisecond of start-up counts.
 */
import * as z from 'zod/mini'

const nullableString = () => z._default(z.nullable(z.string()), null)
const nullableCount = () => z._default(z.nullable(z.number()), null)

/** Salience of a bookmark: 1 notable, 2 should consolidate, 3 must consolidate. */
export const SalienceSchema = z.union([z.literal(1), z.literal(2), z.literal(3)])
/** Bookmark salience, 1 to 3. */
export type Salience = z.infer<typeof SalienceSchema>

/** One Claude Code session (or a manual `sleep add` entry) and the debt it booked. */
export const SessionRecordSchema = z.looseObject({
  session_id: z.string(),
  transcript_path: nullableString(),
  stopped_at: nullableString(),
  last_assistant_message: nullableString(),
  change_count: nullableCount(),
  tool_count: nullableCount(),
  /** null while the transcript is not yet readable: the score is pending, not zero. */
  score: nullableCount(),
  task_slugs: z._default(z.array(z.string()), () => []),
})
/** A session row of the ledger. */
export type SessionRecord = z.infer<typeof SessionRecordSchema>

/** A moment tagged during work ("awake ripple"), consolidated first at the next sleep. */
export const BookmarkSchema = z.looseObject({
  id: z.string(),
  message: z.string(),
  salience: SalienceSchema,
  created_at: z.string(),
  session_id: nullableString(),
  task_slug: nullableString(),
})
/** A bookmark row of the ledger. */
export type Bookmark = z.infer<typeof BookmarkSchema>

/** A prospective reminder: when `when` matches the current work, surface `remind`. */
export const TriggerSchema = z.looseObject({
  id: z.string(),
  when: z.string(),
  remind: z.string(),
  source: nullableString(),
  created_at: z.string(),
  fired_count: z._default(z.number(), 0),
  max_fires: z._default(z.number(), 3),
})
/** A trigger row of the ledger. */
export type Trigger = z.infer<typeof TriggerSchema>

/** When a knowledge file was last read and how often, for staleness and the warm tier. */
export const KnowledgeAccessSchema = z.looseObject({
  last_accessed: z.string(),
  count: z._default(z.number(), 0),
})
/** A knowledge access record. */
export type KnowledgeAccess = z.infer<typeof KnowledgeAccessSchema>

/** A context compaction seen by the PreCompact hook. */
export const CompactionRecordSchema = z.looseObject({
  timestamp: z.string(),
  trigger: z.string(),
  debt_at_compaction: z.number(),
  sessions_count: z.number(),
  bookmarks_count: z.number(),
})
/** A compaction log row. */
export type CompactionRecord = z.infer<typeof CompactionRecordSchema>

/** The whole ledger. Unknown keys are kept, so a newer or older writer never loses data. */
export const SleepStateSchema = z.looseObject({
  debt: z._default(z.number(), 0),
  last_sleep: nullableString(),
  last_sleep_summary: nullableString(),
  sleep_started_at: nullableString(),
  /** Records at or before this instant are already consolidated and never scored again. */
  last_consolidated_at: nullableString(),
  sessions_since_last_sleep: z._default(z.number(), 0),
  sessions: z._default(z.array(SessionRecordSchema), () => []),
  bookmarks: z._default(z.array(BookmarkSchema), () => []),
  triggers: z._default(z.array(TriggerSchema), () => []),
  knowledge_access: z._default(z.record(z.string(), KnowledgeAccessSchema), () => ({})),
  dashboard_changes: z._default(z.array(z.unknown()), () => []),
  compaction_log: z._default(z.array(CompactionRecordSchema), () => []),
})
/** The parsed `.sleep.json`. */
export type SleepState = z.infer<typeof SleepStateSchema>

/** One consolidation, as kept in `.sleep-history.json` (newest first). */
export const SleepHistoryEntrySchema = z.looseObject({
  date: z.string(),
  consolidated_at: nullableString(),
  summary: z.string(),
  debt_before: z.number(),
  debt_after: z.number(),
  sessions_processed: z.number(),
  bookmarks_processed: z._default(z.number(), 0),
  session_ids: z._default(z.array(z.string()), () => []),
  /** The bookmarks this consolidation cleared (absent in entries written before it was kept). */
  bookmark_ids: z._default(z.array(z.string()), () => []),
})
/** A history row. */
export type SleepHistoryEntry = z.infer<typeof SleepHistoryEntrySchema>

/** The parsed `.sleep-history.json`. */
export const SleepHistorySchema = z.array(SleepHistoryEntrySchema)

/**
 * A new empty ledger. A function, not a shared constant: spreading a constant shares its arrays
 * between callers, the test-pollution bug seed 000 records.
 */
export function freshSleepState(): SleepState {
  return SleepStateSchema.parse({})
}
