/** The documents of a brain (`_agent_context/`): core files, knowledge, tasks, features. */
import type { BrainDocument, ListableKind } from '../core/brain-layout.ts'
import { SomnusError } from '../core/errors.ts'

export type { BrainDocument, ListableKind } from '../core/brain-layout.ts'

/**
 * A brain's documents, named by meaning (`{ kind: 'task', slug }`), never by path: where a
 * document lives is the adapter's business. Every adapter refuses a name that would leave the
 * brain (a separator or `..` in a slug, a symlink out) with OUTSIDE_BRAIN, before it reads or
 * writes anything.
 */
export interface BrainFiles {
  /** The document's text, or null when it does not exist. */
  read(document: BrainDocument): Promise<string | null>
  /** Creates or replaces the document atomically (a reader sees the old or the new text, never half). */
  write(document: BrainDocument, text: string): Promise<void>
  /** Deletes the document; no error when it is already gone. */
  remove(document: BrainDocument): Promise<void>
  /** Every document of `kind`, sorted by name; empty when there are none. */
  list(kind: ListableKind): Promise<BrainDocument[]>
  /** Where a person finds the document, for messages (`_agent_context/state/auth.md` on disk). */
  where(document: BrainDocument): string
}

/**
 * Throws OUTSIDE_BRAIN unless `path` is relative and stays below its root by its text alone: no
 * `..` segment, no leading `/` or `\`, no drive letter, no NUL byte. `place` names the root in the
 * message. Symlinks are the adapter's to check: only the file system knows them.
 */
export function refuseEscapingPath(path: string, place: string): void {
  const problem = escapeProblem(path)
  if (problem === null) return
  throw new SomnusError(
    'OUTSIDE_BRAIN',
    `Refused the path ${JSON.stringify(path)}: ${problem}. Somnus reads and writes only inside ${place}: name a path relative to it, without "..".`,
    { details: { path } },
  )
}

function escapeProblem(path: string): string | null {
  if (path.includes('\0')) return 'it contains a NUL byte'
  if (/^([\\/]|[A-Za-z]:)/.test(path)) return 'it is an absolute path'
  // Checked for every file the hooks read: split only a path that could hold a `..` step.
  if (path.includes('..') && path.split(/[\\/]/).includes('..')) return 'it climbs out with ".."'
  return null
}
