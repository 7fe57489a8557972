/**
 * The sleep ledger on disk: `<stateDir>/.sleep.json` and `<stateDir>/.sleep-history.json`.
 * Every change is a read-modify-write under an inter-process lock (proper-lockfile) and lands by
 * atomic rename (write-file-atomic), so concurrent hooks never lose an update and a killed writer
 * never leaves half a file. Reads are tolerant: a missing file is a fresh ledger, a corrupt one is
 * set aside under a new name and reported, never silently overwritten.
 * This module is on the hook path: zod/mini only, no heavy imports.
 */
import { mkdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import lockfile from 'proper-lockfile'
import writeFileAtomic from 'write-file-atomic'
import { SomnusError } from '../../core/errors.ts'
import {
  freshSleepState,
  type SleepHistoryEntry,
  SleepHistoryEntrySchema,
  type SleepState,
  SleepStateSchema,
} from '../../core/sleep-state.ts'
import type { SleepStateStore } from '../../ports/sleep-state-store.ts'

/** The ledger file name inside the state folder (seed 000). */
export const SLEEP_STATE_FILE = '.sleep.json'
/** The consolidation history file name inside the state folder (agentcontext). */
export const SLEEP_HISTORY_FILE = '.sleep-history.json'
/** The lock folder proper-lockfile creates while a change is in flight. */
export const SLEEP_LOCK_FILE = '.sleep.json.lock'

/** Settings of the file store. */
export interface FsSleepStateStoreOptions {
  /** The `_agent_context/state` folder. Created by the first `update()`, never by `read()`. */
  stateDir: string
  /** Reports a corrupt file set aside or a lock that was lost. */
  warn: (message: string) => void
  /**
   * A lock not refreshed for this long belongs to a killed process and is taken over.
   * proper-lockfile refreshes a held lock every stale/2 ms; it enforces at least 2000.
   */
  staleMs?: number
  /** How long `update()` waits for the lock before failing with STATE_LOCKED. */
  lockWaitMs?: number
  /** The time used to name quarantined files (tests fix it). */
  now?: () => Date
}

const DEFAULT_STALE_MS = 4_000
const DEFAULT_LOCK_WAIT_MS = 15_000
/** Backoff between lock attempts: starts small because most changes hold the lock a few ms. */
const FIRST_RETRY_MS = 4
const LONGEST_RETRY_MS = 120

type Loaded<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  | { kind: 'corrupt'; problem: string }

interface StateFileContent {
  state: SleepState
  /** Entries of the old layout, where history lived inside `.sleep.json`. */
  legacyHistory: SleepHistoryEntry[]
  /** True when the file still has the old `sleep_history` key, which the next write removes. */
  hasLegacyKey: boolean
}

/** The ledger store on disk. */
export function createFsSleepStateStore(options: FsSleepStateStoreOptions): SleepStateStore {
  const statePath = join(options.stateDir, SLEEP_STATE_FILE)
  const historyPath = join(options.stateDir, SLEEP_HISTORY_FILE)
  const lockPath = join(options.stateDir, SLEEP_LOCK_FILE)
  const staleMs = Math.max(options.staleMs ?? DEFAULT_STALE_MS, 2_000)
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS
  const now = options.now ?? (() => new Date())

  const withLock = <T>(task: () => Promise<T>): Promise<T> =>
    serialise(lockPath, () => holdingLock({ ...options, lockPath, staleMs, lockWaitMs }, task))

  const quarantine = async (path: string, problem: string): Promise<void> => {
    const target = `${path}.corrupt-${now().toISOString().replaceAll(':', '-')}`
    await rename(path, target)
    options.warn(
      `${path} was unreadable (${problem}); moved it to ${target} and started from defaults. Inspect that file to recover anything you need.`,
    )
  }

  /** Sets aside a file found corrupt outside the lock, if it is still corrupt under the lock. */
  const repair = async <T>(path: string, load: () => Promise<Loaded<T>>): Promise<void> => {
    try {
      await withLock(async () => {
        const again = await load()
        if (again.kind === 'corrupt') await quarantine(path, again.problem)
      })
    } catch (error) {
      options.warn(`${path} is unreadable and could not be set aside: ${messageOf(error)}`)
    }
  }

  const loadState = () => loadStateFile(statePath)
  const loadHistory = () => loadHistoryFile(historyPath)

  return {
    async read() {
      const loaded = await loadState()
      if (loaded.kind === 'ok') return loaded.value.state
      if (loaded.kind === 'corrupt') await repair(statePath, loadState)
      return freshSleepState()
    },

    async readHistory() {
      const [state, history] = await Promise.all([loadState(), loadHistory()])
      if (history.kind === 'corrupt') await repair(historyPath, loadHistory)
      const entries = history.kind === 'ok' ? history.value : []
      const legacy = state.kind === 'ok' ? state.value.legacyHistory : []
      return mergeHistory(entries, legacy)
    },

    async update(change) {
      await mkdir(options.stateDir, { recursive: true })
      return withLock(async () => {
        const loaded = await loadState()
        if (loaded.kind === 'corrupt') await quarantine(statePath, loaded.problem)
        const current = loaded.kind === 'ok' ? loaded.value : null
        const base = current ? current.state : freshSleepState()
        // A missing file already reads as fresh defaults, so writing those changes nothing.
        const before = JSON.stringify(base)
        const outcome = change(base)
        // Validate before writing: a bug in a change must not reach the disk.
        const next = SleepStateSchema.parse(outcome.state)
        const legacy = current?.legacyHistory ?? []
        const migrating = current?.hasLegacyKey === true
        if (outcome.history || migrating) {
          const history = await loadHistory()
          if (history.kind === 'corrupt') await quarantine(historyPath, history.problem)
          const existing = history.kind === 'ok' ? history.value : []
          const fresh = outcome.history ? [SleepHistoryEntrySchema.parse(outcome.history)] : []
          // History first: if the process dies between the two writes, the legacy entries are
          // still in `.sleep.json` and the next migration skips the copies already moved.
          await writeJson(historyPath, [...fresh, ...mergeHistory(existing, legacy)])
        }
        if (migrating || JSON.stringify(next) !== before) await writeJson(statePath, next)
        return outcome.result
      })
    },
  }
}

const LEGACY_KEY = 'sleep_history'

async function loadStateFile(path: string): Promise<Loaded<StateFileContent>> {
  const raw = await loadJson(path)
  if (raw.kind !== 'ok') return raw
  const value = raw.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { kind: 'corrupt', problem: 'not a JSON object' }
  }
  const { [LEGACY_KEY]: legacyValue, ...rest } = value as Record<string, unknown>
  const parsed = SleepStateSchema.safeParse(rest)
  if (!parsed.success) return { kind: 'corrupt', problem: describeIssue(parsed.error.issues) }
  const content: StateFileContent = {
    state: parsed.data,
    legacyHistory: validEntries(legacyValue),
    hasLegacyKey: LEGACY_KEY in value,
  }
  return { kind: 'ok', value: content }
}

async function loadHistoryFile(path: string): Promise<Loaded<SleepHistoryEntry[]>> {
  const raw = await loadJson(path)
  if (raw.kind !== 'ok') return raw
  if (!Array.isArray(raw.value)) return { kind: 'corrupt', problem: 'not a JSON array' }
  const entries: SleepHistoryEntry[] = []
  for (const [index, item] of raw.value.entries()) {
    const parsed = SleepHistoryEntrySchema.safeParse(item)
    if (!parsed.success) {
      return { kind: 'corrupt', problem: `entry ${index}: ${describeIssue(parsed.error.issues)}` }
    }
    entries.push(parsed.data)
  }
  return { kind: 'ok', value: entries }
}

async function loadJson(path: string): Promise<Loaded<unknown>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' }
    throw error
  }
  try {
    return { kind: 'ok', value: JSON.parse(text) }
  } catch (error) {
    return { kind: 'corrupt', problem: `invalid JSON: ${messageOf(error)}` }
  }
}

/** Legacy history entries that still parse; the old layout was hand-edited, so skip the rest. */
function validEntries(value: unknown): SleepHistoryEntry[] {
  if (!Array.isArray(value)) return []
  const entries: SleepHistoryEntry[] = []
  for (const item of value) {
    const parsed = SleepHistoryEntrySchema.safeParse(item)
    if (parsed.success) entries.push(parsed.data)
  }
  return entries
}

/** `entries` followed by the legacy entries not already among them (legacy ones are older). */
function mergeHistory(
  entries: SleepHistoryEntry[],
  legacy: SleepHistoryEntry[],
): SleepHistoryEntry[] {
  if (legacy.length === 0) return entries
  const seen = new Set(entries.map((entry) => JSON.stringify(entry)))
  return [...entries, ...legacy.filter((entry) => !seen.has(JSON.stringify(entry)))]
}

function describeIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0]
  if (!issue) return 'does not match the ledger schema'
  const where = issue.path.map(String).join('.') || '(root)'
  return `"${where}" ${issue.message}`
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`)
}

/** Runs `task` holding the inter-process lock, retrying with jittered backoff until the deadline. */
async function holdingLock<T>(
  settings: {
    stateDir: string
    lockPath: string
    staleMs: number
    lockWaitMs: number
    warn: (message: string) => void
  },
  task: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + settings.lockWaitMs
  let delay = FIRST_RETRY_MS
  let release: () => Promise<void>
  for (;;) {
    try {
      release = await lockfile.lock(settings.stateDir, {
        lockfilePath: settings.lockPath,
        realpath: false,
        stale: settings.staleMs,
        update: Math.max(1_000, Math.floor(settings.staleMs / 2)),
        retries: 0,
        // The default throws from a timer and kills the process; a hook must never die of it.
        onCompromised: (error) =>
          settings.warn(
            `lost the lock on ${settings.lockPath} (${error.message}); another process may have written the ledger at the same time.`,
          ),
      })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error
      if (Date.now() >= deadline) {
        throw new SomnusError(
          'STATE_LOCKED',
          `The sleep ledger is locked by another somnus process (waited ${settings.lockWaitMs} ms). Retry in a moment; if no somnus process is running, delete ${settings.lockPath}.`,
          { cause: error },
        )
      }
      // Jitter spreads waiters out so they do not all retry in the same instant.
      await sleep(delay * (0.5 + Math.random()))
      delay = Math.min(delay * 1.5, LONGEST_RETRY_MS)
    }
  }
  try {
    return await task()
  } finally {
    // A compromised lock cannot be released; there is nothing left to undo then.
    await release().catch(() => undefined)
  }
}

/** One in-flight change per lock per process: waiting in memory is cheaper than polling a lock. */
const queues = new Map<string, Promise<unknown>>()

function serialise<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve()
  const run = previous.then(task, task)
  const settled = run.catch(() => undefined)
  queues.set(key, settled)
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key)
  })
  return run
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds))
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
