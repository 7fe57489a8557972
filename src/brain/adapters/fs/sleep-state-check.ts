/**
 * A one-pass structural check of the ledger, giving exactly what `SleepStateSchema.parse` gives
 * (defaults filled in, unknown keys kept after the known ones) for plain JSON data. Measured on a
 * ledger of 1,000 sessions, cold, as the SessionStart hook runs it: zod/mini ~20 ms, this ~1 ms.
 * Written out record by record (no schema combinators): a hook runs it once, before the JIT has
 * warmed up, where fixed property reads are several times faster than generic ones.
 * A record that is already exactly what the schema returns (every key, in order, each value
 * valid: every record Somnus writes) is returned itself, not copied: the result shares it with
 * the input, so callers hand it a value of their own (a fresh `JSON.parse`).
 * It answers only when it is sure: anything it does not recognise as plain, valid data gives
 * `undefined`, and the caller asks the zod schema, which also words the problem. A differential
 * property test (sleep-state-check.test.ts) keeps the two in step.
 */

import { capClosingMessage, MAX_CLOSING_MESSAGE_CHARS } from '../../core/closing-message.ts'
import { isCount, isLedgerTotal, isScore, repairedDebt } from '../../core/ledger-counts.ts'
import type {
  Bookmark,
  CompactionRecord,
  KnowledgeAccess,
  SessionRecord,
  SleepHistoryEntry,
  SleepState,
  Trigger,
} from '../../core/sleep-state.ts'
import {
  countOr,
  countOrNull,
  hasExactly,
  isNumber,
  isPlain,
  isStringArray,
  isStringOrNull,
  jsonCopy,
  nullableString,
  numberOr,
  type Plain,
  recordsOf,
  strings,
  UNSURE,
  type Unsure,
  withUnknownKeys,
} from './json-checks.ts'

const SESSION_KEYS = [
  'session_id',
  'transcript_path',
  'stopped_at',
  'last_assistant_message',
  'change_count',
  'tool_count',
  'score',
  'task_slugs',
] as const

function session(value: unknown): SessionRecord | Unsure {
  if (!isPlain(value) || typeof value.session_id !== 'string') return UNSURE
  if (
    hasExactly(value, SESSION_KEYS) &&
    isStringOrNull(value.transcript_path) &&
    isStringOrNull(value.stopped_at) &&
    (value.last_assistant_message === null ||
      (typeof value.last_assistant_message === 'string' &&
        value.last_assistant_message.length <= MAX_CLOSING_MESSAGE_CHARS)) &&
    (value.change_count === null || isCount(value.change_count)) &&
    (value.tool_count === null || isCount(value.tool_count)) &&
    (value.score === null || isScore(value.score)) &&
    isStringArray(value.task_slugs)
  ) {
    return value as SessionRecord
  }
  const out = {
    session_id: value.session_id,
    transcript_path: nullableString(value.transcript_path),
    stopped_at: nullableString(value.stopped_at),
    last_assistant_message: cappedMessage(value.last_assistant_message),
    // Nonsense counts and scores are repaired to null, as the schema does (sleep-state.ts).
    change_count: countOrNull(value.change_count, isCount),
    tool_count: countOrNull(value.tool_count, isCount),
    score: countOrNull(value.score, isScore),
    task_slugs: strings(value.task_slugs),
  }
  if (
    out.transcript_path === UNSURE ||
    out.stopped_at === UNSURE ||
    out.last_assistant_message === UNSURE ||
    out.task_slugs === UNSURE
  ) {
    return UNSURE
  }
  return withUnknownKeys(value, out as SessionRecord, SESSION_KEYS)
}

/** The closing message as the schema keeps it: capped (closing-message.ts). */
function cappedMessage(value: unknown): string | null | Unsure {
  const message = nullableString(value)
  return typeof message === 'string' ? capClosingMessage(message) : message
}

const BOOKMARK_KEYS = ['id', 'message', 'salience', 'created_at', 'session_id', 'task_slug']

function bookmark(value: unknown): Bookmark | Unsure {
  if (!isPlain(value)) return UNSURE
  const { id, message, salience, created_at } = value
  if (typeof id !== 'string' || typeof message !== 'string' || typeof created_at !== 'string') {
    return UNSURE
  }
  if (salience !== 1 && salience !== 2 && salience !== 3) return UNSURE
  if (
    hasExactly(value, BOOKMARK_KEYS) &&
    isStringOrNull(value.session_id) &&
    isStringOrNull(value.task_slug)
  ) {
    return value as Bookmark
  }
  const session_id = nullableString(value.session_id)
  const task_slug = nullableString(value.task_slug)
  if (session_id === UNSURE || task_slug === UNSURE) return UNSURE
  const out: Bookmark = { id, message, salience, created_at, session_id, task_slug }
  return withUnknownKeys(value, out, BOOKMARK_KEYS)
}

const TRIGGER_KEYS = ['id', 'when', 'remind', 'source', 'created_at', 'fired_count', 'max_fires']

function trigger(value: unknown): Trigger | Unsure {
  if (!isPlain(value)) return UNSURE
  const { id, when, remind, created_at } = value
  if (
    typeof id !== 'string' ||
    typeof when !== 'string' ||
    typeof remind !== 'string' ||
    typeof created_at !== 'string'
  ) {
    return UNSURE
  }
  if (
    hasExactly(value, TRIGGER_KEYS) &&
    isStringOrNull(value.source) &&
    isCount(value.fired_count) &&
    isCount(value.max_fires)
  ) {
    return value as Trigger
  }
  const source = nullableString(value.source)
  const fired_count = countOr(value.fired_count, 0)
  const max_fires = countOr(value.max_fires, 3)
  if (source === UNSURE) return UNSURE
  const out = { id, when, remind, source, created_at, fired_count, max_fires }
  return withUnknownKeys(value, out, TRIGGER_KEYS)
}

const ACCESS_KEYS = ['last_accessed', 'count']

function knowledgeAccess(value: unknown): KnowledgeAccess | Unsure {
  if (!isPlain(value) || typeof value.last_accessed !== 'string') return UNSURE
  if (hasExactly(value, ACCESS_KEYS) && isNumber(value.count)) return value as KnowledgeAccess
  const count = numberOr(value.count, 0)
  if (count === UNSURE) return UNSURE
  return withUnknownKeys(value, { last_accessed: value.last_accessed, count }, ACCESS_KEYS)
}

/** `knowledge_access`: a record of access records by slug; `trusted` as in `recordsOf`. */
function accessRecords(value: unknown, trusted: unknown): Record<string, KnowledgeAccess> | Unsure {
  if (value === undefined) return {}
  if (!isPlain(value)) return UNSURE
  if (value === trusted) return value as Record<string, KnowledgeAccess>
  const before = isPlain(trusted) ? trusted : undefined
  const out: Record<string, KnowledgeAccess> = {}
  for (const key of Object.keys(value)) {
    const item = value[key]
    const checked =
      key === '__proto__'
        ? UNSURE
        : before !== undefined && item === before[key]
          ? (item as KnowledgeAccess)
          : knowledgeAccess(item)
    if (checked === UNSURE) return UNSURE
    out[key] = checked
  }
  return out
}

const COMPACTION_KEYS = [
  'timestamp',
  'trigger',
  'debt_at_compaction',
  'sessions_count',
  'bookmarks_count',
]

function compaction(value: unknown): CompactionRecord | Unsure {
  if (!isPlain(value)) return UNSURE
  const { timestamp, trigger, debt_at_compaction, sessions_count, bookmarks_count } = value
  if (typeof timestamp !== 'string' || typeof trigger !== 'string') return UNSURE
  if (!isNumber(debt_at_compaction) || !isNumber(sessions_count) || !isNumber(bookmarks_count)) {
    return UNSURE
  }
  if (hasExactly(value, COMPACTION_KEYS)) return value as CompactionRecord
  const out = { timestamp, trigger, debt_at_compaction, sessions_count, bookmarks_count }
  return withUnknownKeys(value, out, COMPACTION_KEYS)
}

/** `z.array(z.unknown())`, copied; `trusted` as in `recordsOf`. */
function unknownItems(value: unknown, trusted: unknown): unknown[] | Unsure {
  if (value === undefined) return []
  if (!Array.isArray(value)) return UNSURE
  if (value === trusted) return value
  const copy = jsonCopy(value)
  return copy === UNSURE ? UNSURE : (copy as unknown[])
}

const STATE_KEYS = [
  'debt',
  'last_sleep',
  'last_sleep_summary',
  'sleep_started_at',
  'last_consolidated_at',
  'previous_consolidated_at',
  'last_consolidated_ids',
  'sessions_since_last_sleep',
  'sessions',
  'bookmarks',
  'triggers',
  'knowledge_access',
  'dashboard_changes',
  'compaction_log',
  'inbox_merged_ids',
]

/**
 * `SleepStateSchema.parse(value)` when `value` is plain valid data; undefined: ask the schema.
 * With `trusted` (a state this function or the schema returned), parts of `value` that are parts
 * of `trusted` are not checked again and are shared with the result instead of copied.
 */
export function checkSleepState(value: unknown, trusted?: SleepState): SleepState | undefined {
  if (!isPlain(value)) return undefined
  const before: Partial<SleepState> = trusted ?? {}
  const sessions = recordsOf(session, value.sessions, before.sessions)
  const out = {
    debt: value.debt === undefined ? 0 : value.debt,
    last_sleep: nullableString(value.last_sleep),
    last_sleep_summary: nullableString(value.last_sleep_summary),
    sleep_started_at: nullableString(value.sleep_started_at),
    last_consolidated_at: nullableString(value.last_consolidated_at),
    previous_consolidated_at: nullableString(value.previous_consolidated_at),
    // The trusted array is shared, not copied: the ledger store compares parts by reference to
    // find a change that touches only trigger fire counts (patched in place).
    last_consolidated_ids:
      before.last_consolidated_ids !== undefined &&
      value.last_consolidated_ids === before.last_consolidated_ids
        ? before.last_consolidated_ids
        : strings(value.last_consolidated_ids),
    sessions_since_last_sleep:
      value.sessions_since_last_sleep === undefined ? 0 : value.sessions_since_last_sleep,
    sessions,
    bookmarks: recordsOf(bookmark, value.bookmarks, before.bookmarks),
    triggers: recordsOf(trigger, value.triggers, before.triggers),
    knowledge_access: accessRecords(value.knowledge_access, before.knowledge_access),
    dashboard_changes: unknownItems(value.dashboard_changes, before.dashboard_changes),
    compaction_log: recordsOf(compaction, value.compaction_log, before.compaction_log),
    // Absent unless Stops were queued: most ledgers never carry it.
    inbox_merged_ids:
      value.inbox_merged_ids === undefined ? undefined : strings(value.inbox_merged_ids),
  }
  for (const key of STATE_KEYS) {
    if ((out as Plain)[key] === UNSURE) return undefined
  }
  // A nonsense debt or rhythm is derived from the sessions, as the schema does (sleep-state.ts).
  if (!isLedgerTotal(out.debt)) out.debt = repairedDebt(sessions as SessionRecord[])
  if (!isLedgerTotal(out.sessions_since_last_sleep)) {
    out.sessions_since_last_sleep = (sessions as SessionRecord[]).length
  }
  if (out.inbox_merged_ids === undefined) delete (out as Plain).inbox_merged_ids
  const checked = withUnknownKeys(value, out as Plain, STATE_KEYS)
  return checked === UNSURE ? undefined : (checked as SleepState)
}

const HISTORY_KEYS = [
  'date',
  'consolidated_at',
  'summary',
  'debt_before',
  'debt_after',
  'sessions_processed',
  'bookmarks_processed',
  'session_ids',
  'bookmark_ids',
]

/** `SleepHistoryEntrySchema.parse(value)` for plain valid data; undefined: ask the schema. */
export function checkHistoryEntry(value: unknown): SleepHistoryEntry | undefined {
  if (!isPlain(value)) return undefined
  const { date, summary, debt_before, debt_after, sessions_processed } = value
  if (typeof date !== 'string' || typeof summary !== 'string') return undefined
  if (!isNumber(debt_before) || !isNumber(debt_after) || !isNumber(sessions_processed)) {
    return undefined
  }
  const consolidated_at = nullableString(value.consolidated_at)
  const bookmarks_processed = numberOr(value.bookmarks_processed, 0)
  const session_ids = strings(value.session_ids)
  const bookmark_ids = strings(value.bookmark_ids)
  if (
    consolidated_at === UNSURE ||
    bookmarks_processed === UNSURE ||
    session_ids === UNSURE ||
    bookmark_ids === UNSURE
  ) {
    return undefined
  }
  const out = {
    date,
    consolidated_at,
    summary,
    debt_before,
    debt_after,
    sessions_processed,
    bookmarks_processed,
    session_ids,
    bookmark_ids,
  }
  const checked = withUnknownKeys(value, out, HISTORY_KEYS)
  return checked === UNSURE ? undefined : checked
}
