/**
 * The brain's documents by meaning, and where the seeds lay each one out under `_agent_context/`.
 * Use cases name documents (`{ kind: 'task', slug }`); only storage adapters turn them into paths,
 * so a store that is not a folder (SQL) keys them by kind and name instead.
 */
import { isExtendedCoreFile } from './core-files.ts'
import { SomnusError } from './errors.ts'

/** The name of the context folder, as in the seeds. */
export const CONTEXT_DIR_NAME = '_agent_context'

/** The core files with a fixed role: soul, user and memory load in full; the JSON lists. */
export type CoreDocumentName = 'soul' | 'user' | 'memory' | 'changelog' | 'releases'

/**
 * The folders that hold one document per slug. A `digest` is one session's digest, kept whole by
 * `sleep run` (`knowledge/sessions/2026-02-11-258c7280.md`).
 */
export type SlugKind = 'knowledge' | 'task' | 'feature' | 'digest'

/** Kinds whose documents can be listed. */
export type ListableKind = SlugKind | 'extended-core'

/** One document of a brain, named by what it is. */
export type BrainDocument =
  | { kind: 'core'; name: CoreDocumentName }
  /** Core files 3 and up (`3.style_guide_and_branding.md`, `5.data_structures.sql`), by file name. */
  | { kind: 'extended-core'; file: string }
  | { kind: SlugKind; slug: string }
  /** Where lines that no longer fit in the user or memory file are kept. */
  | { kind: 'archive'; of: 'user' | 'memory' }
  /** The sleep ledger: written by `init` only; the SleepStateStore owns it afterwards. */
  | { kind: 'ledger' }
  /** The brain's own ignore rules (`.gitignore`). */
  | { kind: 'ignore-rules' }
  /** The empty file that keeps a slug folder in version control (`.gitkeep`). */
  | { kind: 'folder-keeper'; folder: SlugKind }

const CORE_PATHS: Record<CoreDocumentName, string> = {
  soul: 'core/0.soul.md',
  user: 'core/1.user.md',
  memory: 'core/2.memory.md',
  changelog: 'core/CHANGELOG.json',
  releases: 'core/RELEASES.json',
}

const ARCHIVE_PATHS = {
  user: 'knowledge/1.user-archive.md',
  memory: 'knowledge/2.memory-archive.md',
} as const

/** The folder of each listable kind, relative to the context root. */
export const KIND_FOLDERS: Record<ListableKind, string> = {
  knowledge: 'knowledge',
  digest: 'knowledge/sessions',
  task: 'state',
  feature: 'core/features',
  'extended-core': 'core',
}

/**
 * The document's path relative to the context root. Throws OUTSIDE_BRAIN for a slug or file name
 * that is not one plain name (a separator, `..`, a NUL byte), so no document can name a path out.
 */
export function documentPath(document: BrainDocument): string {
  switch (document.kind) {
    case 'core':
      return CORE_PATHS[document.name]
    case 'archive':
      return ARCHIVE_PATHS[document.of]
    case 'ledger':
      return 'state/.sleep.json'
    case 'ignore-rules':
      return '.gitignore'
    case 'folder-keeper':
      return `${KIND_FOLDERS[document.folder]}/.gitkeep`
    case 'extended-core':
      return `core/${plainName(document.file, document)}`
    default:
      return `${KIND_FOLDERS[document.kind]}/${plainName(document.slug, document)}.md`
  }
}

/** The document a file name found in a listed kind's folder holds, or null when it is none. */
export function documentInFolder(kind: ListableKind, fileName: string): BrainDocument | null {
  if (kind === 'extended-core') {
    return isExtendedCoreFile(fileName) ? { kind, file: fileName } : null
  }
  // Dot files (`.sleep.json`, a sleep run's conflict copies) are never documents.
  if (!fileName.endsWith('.md') || fileName.startsWith('.')) return null
  return { kind, slug: fileName.slice(0, -3) }
}

/** The document at `path` (relative to the context root), or null when the layout has none there. */
export function documentAt(path: string): BrainDocument | null {
  for (const [name, corePath] of Object.entries(CORE_PATHS)) {
    if (path === corePath) return { kind: 'core', name: name as CoreDocumentName }
  }
  for (const [of, archivePath] of Object.entries(ARCHIVE_PATHS)) {
    if (path === archivePath) return { kind: 'archive', of: of as 'user' | 'memory' }
  }
  if (path === 'state/.sleep.json') return { kind: 'ledger' }
  if (path === '.gitignore') return { kind: 'ignore-rules' }
  const slash = path.lastIndexOf('/')
  const folder = path.slice(0, slash)
  const name = path.slice(slash + 1)
  for (const [kind, kindFolder] of Object.entries(KIND_FOLDERS) as [ListableKind, string][]) {
    if (folder !== kindFolder) continue
    if (name === '.gitkeep' && kind !== 'extended-core')
      return { kind: 'folder-keeper', folder: kind }
    const document = documentInFolder(kind, name)
    if (document) return document
  }
  return null
}

function plainName(name: string, document: BrainDocument): string {
  if (name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name)) return name
  throw new SomnusError(
    'OUTSIDE_BRAIN',
    `Refused the ${document.kind} name ${JSON.stringify(name)}: a document is named by one plain name, without "/", "\\", ".." or NUL. Somnus reads and writes only inside the brain.`,
    { details: { name } },
  )
}
