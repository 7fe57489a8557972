/**
 * The sleep ledger kept in `_agent_context/state/.sleep.json`, with the field names of seeds 000/001
 * and of the agentcontext code behind them (research/seed-systems.md 1.3). Parsed with zod/mini
 * because this module sits on the hook path, where every millisecond of start-up counts.
 */
import * as z from 'zod/mini'
import { capClosingMessage } from './closing-message.ts'
import { isCount, isLedgerTotal, isScore, repairedDebt } from './ledger-counts.ts'

const nullableString = () => z._default(z.nullable(z.string()), null)

// The ledger is outside input (hand edits, old or broken writers), and a count that is negative,
// fractional or absurd is repaired, not fatal: refusing it would set the whole ledger aside.
// Counts and scores become null (unknown; a null score is pending and scored again), and the
// ledger's debt and rhythm, which the sessions determine, are derived from them (see below).
const repairedCount = (valid: (value: unknown) => value is number) =>
  z._default(
    z.pipe(
      z.unknown(),
      z.transform((value): number | null => (valid(value) ? value : null)),
    ),
    null,
  )
const countOr = (
  fallback: number,
  missing = fallback,
  valid: (value: unknown) => value is number = isCount,
) =>
  z._default(
    z.pipe(
      z.unknown(),
      z.transform((value): number => (valid(value) ? value : fallback)),
    ),
    missing,
  )
/** Marks a stored debt or rhythm that is not a count, for the ledger-level repair below. */
const NOT_A_COUNT = -1

/** Salience of a bookmark: 1 notable, 2 should consolidate, 3 must consolidate. */
export const SalienceSchema = z.union([z.literal(1), z.literal(2), z.literal(3)])
/** Bookmark salience, 1 to 3. */
export type Salience = z.infer<typeof SalienceSchema>

/** One Claude Code session (or a manual `sleep add` entry) and the debt it booked. */
export const SessionRecordSchema = z.looseObject({
  session_id: z.string(),
  transcript_path: nullableString(),
  stopped_at: nullableString(),
  /** Capped (closing-message.ts) on every read, so one write shrinks an old, bloated ledger. */
  last_assistant_message: z._default(
    z.nullable(z.pipe(z.string(), z.transform(capClosingMessage))),
    null,
  ),
  change_count: repairedCount(isCount),
  tool_count: repairedCount(isCount),
  /** null while the transcript is not yet readable: the score is pending, not zero. */
  score: repairedCount(isScore),
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
  fired_count: countOr(0),
  max_fires: countOr(3),
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

/** The ledger's fields as stored; a nonsense `debt` or rhythm comes out NOT_A_COUNT. */
const StoredSleepStateSchema = z.looseObject({
  debt: countOr(NOT_A_COUNT, 0, isLedgerTotal),
  last_sleep: nullableString(),
  last_sleep_summary: nullableString(),
  sleep_started_at: nullableString(),
  /** Records at or before this instant are already consolidated and never scored again. */
  last_consolidated_at: nullableString(),
  /** The boundary before `last_consolidated_at` (see `transcriptReadFrom` in ledger.ts). */
  previous_consolidated_at: nullableString(),
  /** The sessions the last consolidation cleared: only they are read from `last_consolidated_at`. */
  last_consolidated_ids: z._default(z.array(z.string()), () => []),
  sessions_since_last_sleep: countOr(NOT_A_COUNT, 0, isLedgerTotal),
  sessions: z._default(z.array(SessionRecordSchema), () => []),
  bookmarks: z._default(z.array(BookmarkSchema), () => []),
  triggers: z._default(z.array(TriggerSchema), () => []),
  knowledge_access: z._default(z.record(z.string(), KnowledgeAccessSchema), () => ({})),
  dashboard_changes: z._default(z.array(z.unknown()), () => []),
  compaction_log: z._default(z.array(CompactionRecordSchema), () => []),
  /** Ids of the queued Stops still in an inbox file that are merged already (stop-inbox.ts). */
  inbox_merged_ids: z.optional(z.array(z.string())),
})

/**
 * The whole ledger. Unknown keys are kept, so a newer or older writer never loses data. A debt
 * that is not a count is the sum of the session scores (what the hooks keep it equal to), and a
 * nonsense rhythm is the number of sessions since the last sleep.
 */
export const SleepStateSchema = z.pipe(
  StoredSleepStateSchema,
  z.transform((state) => {
    if (state.debt === NOT_A_COUNT) state.debt = repairedDebt(state.sessions)
    if (state.sessions_since_last_sleep === NOT_A_COUNT) {
      state.sessions_since_last_sleep = state.sessions.length
    }
    return state
  }),
)
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
 * between callers, the test-pollution bug seed 000 records (docs/design/origins.md).
 */
export function freshSleepState(): SleepState {
  return SleepStateSchema.parse({})
}
