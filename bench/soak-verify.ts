/**
 * The soak's accounting of one workspace, read as an outside observer reads it (plain JSON, no
 * schema): every session a Stop recorded is still in the ledger or named by a history entry, and
 * every ★★★ bookmark is still in the ledger or in the brain's files.
 */
import { join } from 'node:path'
import { brainText, readJson } from './soak-brain-files.ts'
import type { SoakWorkspace } from './soak-support.ts'

/** What a workspace was given, to be found again at the end. */
export interface Expected {
  /** Sessions whose Stop hook exited 0, with the token of their closing message. */
  sessions: { id: string; token: string }[]
  /** Tokens of bookmarks whose `bookmark add` exited 0, with the id it printed. */
  bookmarks: { token: string; id: string | null }[]
}

/** What the accounting found. */
export interface Accounting {
  sessionsLost: string[]
  /**
   * Sessions a history entry names but whose closing message (one changelog entry per session
   * that changed files) is nowhere in the brain: cleared without being consolidated.
   */
  sessionsClearedUnread: string[]
  bookmarksLost: string[]
  /** Ledger or history missing where they must exist, or not parsing as the expected shape. */
  unreadable: string[]
  /** True when some history entry carries `bookmark_ids` (the lead's addition). */
  historyHasBookmarkIds: boolean
}

interface LooseLedger {
  sessions?: { session_id?: unknown }[]
  bookmarks?: { id?: unknown; message?: unknown }[]
}

interface LooseHistoryEntry {
  session_ids?: unknown
  bookmark_ids?: unknown
}

/** The ledger as plain JSON, or a problem. */
export function readLedgerFile(root: string): LooseLedger | string {
  const ledger = readJson(join(root, 'state', '.sleep.json'))
  if (ledger === undefined) return 'state/.sleep.json is missing'
  if (ledger === null) return 'state/.sleep.json does not parse'
  if (typeof ledger !== 'object' || Array.isArray(ledger))
    return 'state/.sleep.json is not an object'
  return ledger as LooseLedger
}

/** The history as plain JSON (missing: none yet), or a problem. */
export function readHistoryFile(root: string): LooseHistoryEntry[] | string {
  const history = readJson(join(root, 'state', '.sleep-history.json'))
  if (history === undefined) return []
  if (history === null) return 'state/.sleep-history.json does not parse'
  if (!Array.isArray(history)) return 'state/.sleep-history.json is not an array'
  return history as LooseHistoryEntry[]
}

/** Checks `expected` against the workspace's ledger, history and brain files. */
export function account(workspace: SoakWorkspace, expected: Expected): Accounting {
  const unreadable: string[] = []
  const ledger = readLedgerFile(workspace.root)
  const history = readHistoryFile(workspace.root)
  if (typeof ledger === 'string') unreadable.push(`${workspace.name}: ${ledger}`)
  if (typeof history === 'string') unreadable.push(`${workspace.name}: ${history}`)
  const ledgerValue = typeof ledger === 'string' ? {} : ledger
  const historyValue = typeof history === 'string' ? [] : history

  const pendingSessions = new Set<string>()
  for (const session of ledgerValue.sessions ?? []) {
    if (typeof session?.session_id === 'string') pendingSessions.add(session.session_id)
  }
  const sessionsKnown = new Set(pendingSessions)
  let historyHasBookmarkIds = false
  for (const entry of historyValue) {
    if (Array.isArray(entry?.session_ids)) {
      for (const id of entry.session_ids) if (typeof id === 'string') sessionsKnown.add(id)
    }
    if (Array.isArray(entry?.bookmark_ids)) historyHasBookmarkIds = true
  }
  const pendingBookmarks = (ledgerValue.bookmarks ?? [])
    .map((bookmark) => (typeof bookmark?.message === 'string' ? bookmark.message : ''))
    .join('\n')
  const brain = brainText(workspace.root)
  return {
    sessionsLost: expected.sessions.filter(({ id }) => !sessionsKnown.has(id)).map(({ id }) => id),
    sessionsClearedUnread: expected.sessions
      .filter(
        ({ id, token }) =>
          sessionsKnown.has(id) && !pendingSessions.has(id) && !brain.includes(token),
      )
      .map(({ id }) => id),
    // ★★★ must reach the brain: a bookmark named in history but absent from the brain is lost too.
    bookmarksLost: expected.bookmarks
      .filter(({ token }) => !pendingBookmarks.includes(token) && !brain.includes(token))
      .map(({ token }) => token),
    unreadable,
    historyHasBookmarkIds,
  }
}

/** The id `bookmark add` printed ("Bookmarked *** bm_1234abcd: ..."), if any. */
export function printedBookmarkId(stdout: string): string | null {
  return /\b(bm_[A-Za-z0-9_-]+)/.exec(stdout)?.[1] ?? null
}
