/**
 * Moving the pattern folders of a repository's worktrees into the repository's one folder. Before
 * issue 20 each worktree had its own folder (the id was the SHA-256 of the worktree's root), so no
 * lesson could reach three sessions when each session ran in its own worktree. Now the id is the
 * main repository's; this merges what the old folders hold into it: each domain file's entries
 * (by id, an entry already there wins), the id registry (every line kept). Only then is the old
 * folder renamed to `<old id>.moved-to-<new id>`, so nothing is deleted and a second run finds
 * nothing to move (a run killed half way merges again to the same result).
 */
import { existsSync, renameSync } from 'node:fs'
import { basename } from 'node:path'
import { type PatternFile, parsePatternFile, renderPatternFile } from '../../core/pattern-entry.ts'
import type { FolderFiles } from '../../ports/folder-files.ts'

/** The id registry's file (see patterns/app/entry-id-registry.ts). */
const REGISTRY = '.somnus-entry-ids'

/** What a migration moved: the old folders and how many entries came from them. */
export interface FolderMigration {
  moved: string[]
  entries: number
}

/**
 * Merges every folder of `oldDirs` that exists (and is not `into` itself) into the folder
 * `target` (written through `files`, the new folder's confined writer), then renames it aside.
 * Call under the new folder's lock.
 */
export async function migratePatternFolders(
  oldDirs: readonly string[],
  target: { dir: string; files: FolderFiles },
  folderAt: (dir: string) => FolderFiles,
): Promise<FolderMigration> {
  const result: FolderMigration = { moved: [], entries: 0 }
  for (const oldDir of new Set(oldDirs)) {
    if (oldDir === target.dir || !existsSync(oldDir)) continue
    // Read through the confined reader: a symlink in the old folder is not followed out of it.
    const old = folderAt(oldDir)
    for (const name of await old.list('', '.md')) {
      const text = await old.read(name)
      if (text === null || !/^[a-z0-9-]+\.md$/.test(name)) continue
      const domain = name.slice(0, -'.md'.length)
      result.entries += await mergeDomainFile(target.files, name, parsePatternFile(text, domain))
    }
    const registry = await old.read(REGISTRY)
    if (registry !== null) await mergeRegistry(target.files, registry)
    renameSync(oldDir, `${oldDir}.moved-to-${basename(target.dir)}`)
    result.moved.push(oldDir)
  }
  return result
}

/** Adds `incoming`'s entries that the folder's file lacks (by id); returns how many were added. */
async function mergeDomainFile(files: FolderFiles, name: string, incoming: PatternFile) {
  const domain = name.slice(0, -'.md'.length)
  const text = await files.read(name)
  const current =
    text === null ? { preamble: incoming.preamble, entries: [] } : parsePatternFile(text, domain)
  const known = new Set(current.entries.map((entry) => entry.id))
  const added = incoming.entries.filter((entry) => !known.has(entry.id))
  if (added.length === 0 && text !== null) return 0
  await files.write(
    name,
    renderPatternFile({ ...current, entries: [...current.entries, ...added] }),
  )
  return added.length
}

async function mergeRegistry(files: FolderFiles, incoming: string): Promise<void> {
  const current = (await files.read(REGISTRY)) ?? ''
  const lines = new Set(current.split('\n').filter((line) => line.trim() !== ''))
  const before = lines.size
  for (const line of incoming.split('\n')) if (line.trim() !== '') lines.add(line.trim())
  if (lines.size !== before) await files.write(REGISTRY, `${[...lines].join('\n')}\n`)
}
