/**
 * Reading the ledger's two files: JSON text to checked values, tolerant of the old layout, with
 * problems described for the quarantine message. Checked in one pass where possible
 * (`sleep-state-check.ts`); the zod schemas decide, and word the problem, only when that pass
 * cannot vouch for the data.
 */
import type { SleepHistoryEntry, SleepState } from '../../core/sleep-state.ts'
import { checkHistoryEntry, checkSleepState } from './sleep-state-check.ts'

/** The zod schemas, imported only when the one-pass check cannot vouch for the data. */
const schemas = () => import('../../core/sleep-state.ts')

/** What reading one file found. */
export type Loaded<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  | { kind: 'corrupt'; problem: string }

/** The ledger file's content. */
export interface StateFileContent {
  state: SleepState
  /** Entries of the old layout, where history lived inside `.sleep.json`. */
  legacyHistory: SleepHistoryEntry[]
  /** True when the file still has the old `sleep_history` key, which the next write removes. */
  hasLegacyKey: boolean
}

const LEGACY_KEY = 'sleep_history'

/** The file's JSON as a ledger. The result shares parts of `json`: give it a fresh parse. */
export async function stateContent(json: unknown): Promise<Loaded<StateFileContent>> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { kind: 'corrupt', problem: 'not a JSON object' }
  }
  const { [LEGACY_KEY]: legacyValue, ...rest } = json as Record<string, unknown>
  const hasLegacyKey = LEGACY_KEY in json
  const checked = checkSleepState(rest)
  let state: SleepState
  if (checked !== undefined) {
    state = checked
  } else {
    const parsed = (await schemas()).SleepStateSchema.safeParse(rest)
    if (!parsed.success) return { kind: 'corrupt', problem: describeIssue(parsed.error.issues) }
    state = parsed.data
  }
  return {
    kind: 'ok',
    value: { state, legacyHistory: await validEntries(legacyValue), hasLegacyKey },
  }
}

/**
 * False when the ledger's bytes cannot hold the old `sleep_history` key, so reading the history
 * need not decode and parse a large `.sleep.json` (searching bytes is ~20x faster). A key could
 * hide behind a `\u` escape: such files are parsed.
 */
export function mayHoldLegacyHistory(bytes: Buffer): boolean {
  return bytes.includes(LEGACY_KEY) || bytes.includes('\\u')
}

/**
 * `.sleep-history.json`, each entry checked; one bad entry makes the file corrupt. `readBytes`
 * gives the file's bytes, or null when it is missing (the store's confined read).
 */
export async function loadHistoryFile(
  path: string,
  readBytes: (path: string) => Buffer | null,
): Promise<Loaded<SleepHistoryEntry[]>> {
  const text = readBytes(path)?.toString('utf8') ?? null
  if (text === null) return { kind: 'missing' }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { kind: 'corrupt', problem: `invalid JSON: ${messageOf(error)}` }
  }
  if (!Array.isArray(json)) return { kind: 'corrupt', problem: 'not a JSON array' }
  const entries: SleepHistoryEntry[] = []
  for (const [index, item] of json.entries()) {
    const checked = checkHistoryEntry(item)
    if (checked !== undefined) {
      entries.push(checked)
      continue
    }
    const parsed = (await schemas()).SleepHistoryEntrySchema.safeParse(item)
    if (!parsed.success) {
      return { kind: 'corrupt', problem: `entry ${index}: ${describeIssue(parsed.error.issues)}` }
    }
    entries.push(parsed.data)
  }
  return { kind: 'ok', value: entries }
}

/**
 * A new empty ledger, as `freshSleepState()` gives it, built without the zod schemas: the hook
 * path then never constructs them (~3 ms at start-up); they load only to word a problem.
 */
export function freshState(): SleepState {
  return checkSleepState({}) as SleepState
}

/**
 * The state a change returned, checked and with defaults; throws (zod's error) when invalid.
 * Parts it shares with `base` (the checked state the change was given) are not checked again.
 */
export async function validState(value: SleepState, base: SleepState): Promise<SleepState> {
  return checkSleepState(value, base) ?? (await schemas()).SleepStateSchema.parse(value)
}

/** A history entry a change returned, checked; throws (zod's error) when invalid. */
export async function validHistoryEntry(value: SleepHistoryEntry): Promise<SleepHistoryEntry> {
  return checkHistoryEntry(value) ?? (await schemas()).SleepHistoryEntrySchema.parse(value)
}

/** Legacy history entries that still parse; the old layout was hand-edited, so skip the rest. */
async function validEntries(value: unknown): Promise<SleepHistoryEntry[]> {
  if (!Array.isArray(value)) return []
  const entries: SleepHistoryEntry[] = []
  for (const item of value) {
    const checked = checkHistoryEntry(item)
    if (checked !== undefined) {
      entries.push(checked)
      continue
    }
    const parsed = (await schemas()).SleepHistoryEntrySchema.safeParse(item)
    if (parsed.success) entries.push(parsed.data)
  }
  return entries
}

/** `entries` followed by the legacy entries not already among them (legacy ones are older). */
export function mergeHistory(
  entries: SleepHistoryEntry[],
  legacy: SleepHistoryEntry[],
): SleepHistoryEntry[] {
  if (legacy.length === 0) return entries
  const seen = new Set(entries.map((entry) => JSON.stringify(entry)))
  return [...entries, ...legacy.filter((entry) => !seen.has(JSON.stringify(entry)))]
}

/**
 * `entries` without the newest ones a consolidation killed between its two writes left behind:
 * the history is written first, so such an entry is dated after the ledger's last consolidation
 * while everything it names is still in the ledger, uncleared. The run that redoes the work
 * writes its own entry, so keeping the leftover would count the consolidation twice.
 */
export function withoutUncommitted(
  entries: SleepHistoryEntry[],
  state: SleepState,
): SleepHistoryEntry[] {
  const sessions = new Set(state.sessions.map((session) => session.session_id))
  const bookmarks = new Set(state.bookmarks.map((bookmark) => bookmark.id))
  const committedUpTo = state.last_consolidated_at ?? ''
  let start = 0
  for (const entry of entries) {
    const named = entry.session_ids.length + entry.bookmark_ids.length
    const uncommitted =
      entry.consolidated_at !== null &&
      entry.consolidated_at > committedUpTo &&
      named > 0 &&
      entry.session_ids.every((id) => sessions.has(id)) &&
      entry.bookmark_ids.every((id) => bookmarks.has(id))
    if (!uncommitted) break
    start += 1
  }
  return start === 0 ? entries : entries.slice(start)
}

function describeIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0]
  if (!issue) return 'does not match the ledger schema'
  const where = issue.path.map(String).join('.') || '(root)'
  return `"${where}" ${issue.message}`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
