/**
 * The sleep ledger on disk: `<stateDir>/.sleep.json` and `<stateDir>/.sleep-history.json`.
 * Every change is a read-modify-write under an inter-process lock (proper-lockfile's protocol) and
 * lands by atomic rename, so concurrent hooks never lose an update and a killed writer never
 * leaves half a file. Reads are tolerant: a missing file is a fresh ledger, a corrupt one is set
 * aside under a new name and reported, never silently overwritten.
 * This module is on the hook path, where SessionStart reads a ledger of up to ~600 KB and often
 * writes it back: file calls are synchronous (each async call is a thread-pool round trip), and
 * the ledger is checked in one pass that copies nothing it need not (zod only words a problem).
 */
import { closeSync, constants, renameSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { writeFileAtomicSync } from '../../../engine/adapters/fs/atomic-write.ts'
import { type ConfinedFolder, confineTo } from '../../../engine/adapters/fs/confined-path.ts'
import { openPlainFileNoFollow } from '../../../engine/adapters/fs/no-follow-file.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { SleepHistoryEntry, SleepState } from '../../core/sleep-state.ts'
import { mergeQueuedStops, type QueuedStop, type UntrustedInbox } from '../../core/stop-inbox.ts'
import type { SleepStateStore, StateChange } from '../../ports/sleep-state-store.ts'
import { holdConsolidationLock, isConsolidationHeld } from './fs-consolidation-lock.ts'
import {
  freshState,
  type Loaded,
  loadHistoryFile,
  mayHoldLegacyHistory,
  mergeHistory,
  type StateFileContent,
  stateContent,
  validHistoryEntry,
  validState,
  withoutUncommitted,
} from './ledger-files.ts'
import { holdingLock, refuseStrangeLock, serialise } from './ledger-lock.ts'
import { digitsInPlace, patchedFile, patchLedgerTriggers } from './patch-ledger-triggers.ts'
import { sameJson } from './same-json.ts'
import {
  appendToInbox,
  type InboxFile,
  readInboxFiles,
  retireInboxFiles,
} from './stop-inbox-files.ts'
import { sweepTemporaryFiles } from './sweep-temporary-files.ts'

/** The ledger file name inside the state folder (seed 000, docs/design/origins.md). */
export const SLEEP_STATE_FILE = '.sleep.json'
/** The consolidation history file name inside the state folder (agentcontext). */
export const SLEEP_HISTORY_FILE = '.sleep-history.json'
/** The lock folder proper-lockfile creates while a change is in flight. */
export const SLEEP_LOCK_FILE = '.sleep.json.lock'

/** The sleep-run journal's file name inside the state folder (its leftovers are swept here). */
const SLEEP_RUN_JOURNAL_FILE = '.sleep-run.json'
/** The lock folder a `sleep run` holds for its whole run (seconds to minutes). */
export const CONSOLIDATION_LOCK_FILE = '.sleep-run.lock'

/** Settings of the file store. */
export interface FsSleepStateStoreOptions {
  /** The `_agent_context/state` folder. Created by the first `update()`, never by `read()`. */
  stateDir: string
  /**
   * The brain folder that every ledger path must stay inside, symlinks resolved (OUTSIDE_BRAIN
   * otherwise). Defaults to the folder holding `stateDir`.
   */
  brainRoot?: string
  /** Reports a corrupt file set aside or a lock that was lost. */
  warn: (message: string) => void
  /**
   * A lock not refreshed for this long belongs to a killed process and is taken over. A held
   * lock is refreshed every stale/2 ms; at least 2000, the floor proper-lockfile enforces.
   */
  staleMs?: number
  /**
   * How long `update()` waits for the lock before failing with STATE_LOCKED; a function is asked
   * at each update (a hook passes what is left of its Claude Code timeout).
   */
  lockWaitMs?: number | (() => number)
  /** The time used to name quarantined files (tests fix it). */
  now?: () => Date
  /**
   * Whether a queued Stop read from the inbox names a transcript that may be booked. Given, the
   * inbox is untrusted (brain/core/stop-inbox.ts `UntrustedInbox`): a line is applied only if admitted,
   * and always as pending (its score re-derived from the transcript); a refused line is marked
   * merged and reported once through `warn`. Without it every line is taken as written.
   */
  admitsQueuedStop?: (stop: QueuedStop) => boolean
}

const DEFAULT_STALE_MS = 4_000
const DEFAULT_LOCK_WAIT_MS = 15_000
/** The ledger store on disk. */
export function createFsSleepStateStore(options: FsSleepStateStoreOptions): SleepStateStore {
  const statePath = join(options.stateDir, SLEEP_STATE_FILE)
  const historyPath = join(options.stateDir, SLEEP_HISTORY_FILE)
  const lockPath = join(options.stateDir, SLEEP_LOCK_FILE)
  const staleMs = Math.max(options.staleMs ?? DEFAULT_STALE_MS, 2_000)
  const lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS
  const now = options.now ?? (() => new Date())
  const confined = confineTo(options.brainRoot ?? dirname(options.stateDir))
  const readBytes = (path: string) => confined.readBytes(path)

  /**
   * Runs `task` under the lock, the state folder made and checked first: the lock, the temporary
   * files and every rename then land inside the brain.
   */
  const withLock = <T>(task: () => Promise<T>, waitOverrideMs?: number): Promise<T> =>
    serialise(lockPath, () => {
      const waitMs =
        waitOverrideMs ?? (typeof lockWaitMs === 'function' ? lockWaitMs() : lockWaitMs)
      const stateDir = confined.prepareFolder(options.stateDir)
      const realLock = join(stateDir, SLEEP_LOCK_FILE)
      refuseStrangeLock(lockPath, realLock)
      const settings = { ...options, stateDir, lockPath: realLock, staleMs, lockWaitMs: waitMs }
      return holdingLock(settings, task)
    })

  /**
   * Removes the temporary files killed writers left, before a write that could leave one itself
   * (an atomic write): under the lock, where no live writer can own one, since every ledger write
   * holds it. A write of digits in place (SessionStart's fire counts) makes none and skips this.
   */
  const sweepLeftovers = (): void => {
    // Made and checked by withLock already: this is the folder's real path, as resolved then.
    const stateDir = confined.existingFolder(options.stateDir)
    if (stateDir === null) return
    // A sleep run killed while writing its journal leaves one too; it is ours to sweep once no
    // live run holds the brain (a live run is the only journal writer).
    const consolidationLock = join(stateDir, CONSOLIDATION_LOCK_FILE)
    sweepTemporaryFiles(stateDir, [SLEEP_STATE_FILE, SLEEP_HISTORY_FILE], options.warn, {
      name: SLEEP_RUN_JOURNAL_FILE,
      mayRemove: () => !isConsolidationHeld(consolidationLock),
    })
  }

  const quarantine = (path: string, problem: string): void => {
    const target = `${path}.corrupt-${now().toISOString().replaceAll(':', '-')}`
    // The folder was checked by withLock; the rename moves the entry itself, never a link's target.
    renameSync(path, target)
    options.warn(
      `${path} was unreadable (${problem}); moved it to ${target} and started from defaults. Inspect that file to recover anything you need.`,
    )
  }

  /** Sets aside a file found corrupt outside the lock, if it is still corrupt under the lock. */
  const repair = async <T>(path: string, load: () => Promise<Loaded<T>>): Promise<void> => {
    try {
      await withLock(async () => {
        const again = await load()
        if (again.kind === 'corrupt') quarantine(path, again.problem)
      })
    } catch (error) {
      options.warn(`${path} is unreadable and could not be set aside: ${messageOf(error)}`)
    }
  }

  // Parsed afresh on every load: the checked state shares the parse's records (no copy), and
  // every caller gets a state of its own. The bytes are kept for `patchLedgerTriggers`.
  const parseState = async (
    bytes: Buffer | null,
  ): Promise<Loaded<StateFileContent & { bytes: Buffer }>> => {
    if (bytes === null) return { kind: 'missing' }
    let json: unknown
    try {
      json = JSON.parse(bytes.toString('utf8'))
    } catch (error) {
      return { kind: 'corrupt', problem: `invalid JSON: ${messageOf(error)}` }
    }
    const loaded = await stateContent(json)
    return loaded.kind === 'ok' ? { kind: 'ok', value: { ...loaded.value, bytes } } : loaded
  }
  const loadState = () => parseState(readBytes(statePath))
  const loadHistory = () => loadHistoryFile(historyPath, readBytes)
  /** History entries still inside `.sleep.json` (the old layout); parsed only if it may hold some. */
  const loadLegacyHistory = async (): Promise<SleepHistoryEntry[]> => {
    const bytes = readBytes(statePath)
    if (bytes === null || !mayHoldLegacyHistory(bytes)) return []
    const state = await parseState(bytes)
    return state.kind === 'ok' ? state.value.legacyHistory : []
  }

  /**
   * The Stop inbox's files, read; none when the state folder does not exist yet. `locked`: the
   * ledger lock is held, so a refused live file may be moved aside.
   */
  const inboxFiles = (locked = false): InboxFile[] => {
    const stateDir = confined.existingFolder(options.stateDir)
    return stateDir === null ? [] : readInboxFiles(stateDir, options.warn, locked)
  }
  const queuedStops = (files: readonly InboxFile[]) => files.flatMap((file) => file.stops)
  /** The merge policy `admitsQueuedStop` asks for, calling `onRefused` per refused line. */
  const untrustedInbox = (onRefused: () => void): UntrustedInbox | undefined => {
    const admits = options.admitsQueuedStop
    if (admits === undefined) return undefined
    return {
      admits: (stop) => {
        const admitted = admits(stop)
        if (!admitted) onRefused()
        return admitted
      },
    }
  }

  /** The read-modify-write of `update`, the lock already held; merges the Stop inbox first. */
  const updateLocked = async <T>(change: (state: SleepState) => StateChange<T>): Promise<T> => {
    const loaded = await loadState()
    if (loaded.kind === 'corrupt') quarantine(statePath, loaded.problem)
    const current = loaded.kind === 'ok' ? loaded.value : null
    const base = current ? current.state : freshState()
    // Every holder of the lock merges the Stop inbox first, in the write the change makes.
    const inbox = inboxFiles(true)
    const rejected = inbox.reduce((sum, file) => sum + file.rejected, 0)
    if (rejected > 0)
      options.warn(`skipped ${rejected} damaged line(s) in the Stop inbox of ${options.stateDir}`)
    let refused = 0
    const untrusted = untrustedInbox(() => {
      refused += 1
    })
    const merged = mergeQueuedStops(base, queuedStops(inbox), untrusted)
    if (refused > 0)
      options.warn(
        `ignored ${refused} line(s) of the Stop inbox of ${options.stateDir}: they name no transcript of their session in Claude Code's project folders (a committed or forged inbox?)`,
      )
    const outcome = change(merged)
    // Validate before writing: a bug in a change (or a planted inbox line) must not reach the disk.
    const next = outcome.state === base ? base : await validState(outcome.state, base)
    const legacy = current?.legacyHistory ?? []
    const migrating = current?.hasLegacyKey === true
    if (outcome.history || migrating) {
      const history = await loadHistory()
      if (history.kind === 'corrupt') quarantine(historyPath, history.problem)
      const existing =
        history.kind !== 'ok'
          ? []
          : outcome.history
            ? withoutUncommitted(history.value, base)
            : history.value
      const fresh = outcome.history ? [await validHistoryEntry(outcome.history)] : []
      // History first: if the process dies between the two writes, the legacy entries are
      // still in `.sleep.json` and the next migration skips the copies already moved.
      sweepLeftovers()
      writeJson(confined, historyPath, [...fresh, ...mergeHistory(existing, legacy)])
    }
    // Compared before checking: a change shares most of `base`, so the comparison is quick.
    // A missing file already reads as these defaults, so writing those changes nothing.
    if (migrating || !sameJson(outcome.state, base)) {
      writeState(
        confined,
        statePath,
        next,
        current && !migrating ? { ...current, state: base } : null,
        sweepLeftovers,
      )
    }
    // Only now that the ledger holds them may the inbox files be retired.
    if (inbox.length > 0) retireInboxFiles(inbox, Date.now(), options.warn)
    // An update that wrote nothing still sweeps, under this lock, what killed writers left (a
    // recall shelf's segment from a killed `sleep run` is otherwise kept until the next save).
    if (!outcome.history && !migrating && sameJson(outcome.state, base)) sweepLeftovers()
    return outcome.result
  }

  /**
   * Runs an empty update (which merges the inbox) if the lock is free now; else leaves it to the
   * next writer. A read never fails for it: another problem is reported.
   */
  const mergeInboxIfFree = async (): Promise<void> => {
    try {
      await withLock(() => updateLocked((state) => ({ state, result: undefined })), 0)
    } catch (error) {
      if (error instanceof SomnusError && error.code === 'STATE_LOCKED') return
      options.warn(`the Stop inbox was not merged: ${messageOf(error)}`)
    }
  }

  return {
    exclusive: (task) =>
      holdConsolidationLock(
        join(confined.prepareFolder(options.stateDir), CONSOLIDATION_LOCK_FILE),
        task,
      ),

    async read(readOptions = {}) {
      const loaded = await loadState()
      if (loaded.kind === 'corrupt') await repair(statePath, loadState)
      const state = loaded.kind === 'ok' ? loaded.value.state : freshState()
      if (readOptions.inbox === false) return state
      const files = inboxFiles()
      if (files.length === 0) return state
      // Stops waiting in the inbox are shown as merged, and merged for real when the lock is
      // free this instant (`somnus status`, SessionStart): a reader never waits for it.
      const view = mergeQueuedStops(
        state,
        queuedStops(files),
        untrustedInbox(() => undefined),
      )
      if (view !== state) await mergeInboxIfFree()
      return view
    },

    async queue(stop) {
      appendToInbox(confined.prepareFolder(options.stateDir), stop)
    },

    async readHistory() {
      const history = await loadHistory()
      if (history.kind === 'corrupt') await repair(historyPath, loadHistory)
      const entries = history.kind === 'ok' ? history.value : []
      return mergeHistory(entries, await loadLegacyHistory())
    },

    update: (change) => withLock(() => updateLocked(change)),
  }
}

function writeJson(confined: ConfinedFolder, path: string, value: unknown): void {
  writeFileAtomicSync(confined.prepareWrite(path), `${JSON.stringify(value, null, 2)}\n`)
}

/**
 * Writes the ledger `next`. When `read` (the file's bytes and the state they hold) differs from it
 * in trigger fire counts alone, only that part of the file is rewritten: digits changed in place
 * (not fsynced: a power cut may lose the last count, never the file), or else the file with its
 * `triggers` text replaced, by atomic rename. `beforeAtomicWrite` runs before a write by rename.
 */
function writeState(
  confined: ConfinedFolder,
  path: string,
  next: SleepState,
  read: { bytes: Buffer; state: SleepState } | null,
  beforeAtomicWrite: () => void,
): void {
  const patch = read === null ? null : patchLedgerTriggers(read.bytes, read.state, next)
  const digits = patch === null ? null : digitsInPlace(patch)
  if (digits === null) beforeAtomicWrite()
  if (patch === null || read === null) writeJson(confined, path, next)
  else if (digits === null)
    writeFileAtomicSync(confined.prepareWrite(path), patchedFile(read.bytes, patch))
  else overwrite(confined.prepareWrite(path), digits)
}

/** Writes `change.bytes` over the file at `change.offset`, leaving every other byte as it is. */
function overwrite(path: string, change: { offset: number; bytes: Buffer }): void {
  // No following a link: `path` was checked, and a link swapped in since must not be written.
  const fd = openPlainFileNoFollow(path, constants.O_RDWR)
  try {
    let written = 0
    while (written < change.bytes.length) {
      const left = change.bytes.length - written
      written += writeSync(fd, change.bytes, written, left, change.offset + written)
    }
  } finally {
    closeSync(fd)
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
