/** `patterns list`, `patterns show`, `patterns index`: reading what has been learned. */
import type { PatternEntry } from '../core/pattern-entry.ts'
import { renderPatternIndex } from '../core/pattern-index.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'
import { readPatternFiles } from './read-patterns.ts'

/** Every entry, newest first; superseded ones only when `all`. */
export async function listPatterns(
  workspace: PatternWorkspace,
  options: { domain?: string; all?: boolean } = {},
): Promise<PatternEntry[]> {
  const files = await readPatternFiles(workspace)
  const entries = [...files.values()]
    .flatMap((file) => file.entries)
    .filter((entry) => !options.domain || entry.domain === options.domain)
  return options.all ? newestFirst(entries) : activeNewestFirst(entries)
}

/** The active entries of `entries`, newest first: what the index shows. */
export function activeNewestFirst(entries: readonly PatternEntry[]): PatternEntry[] {
  return newestFirst(entries.filter((entry) => entry.status === 'active'))
}

function newestFirst(entries: PatternEntry[]): PatternEntry[] {
  return entries.sort((left, right) =>
    left.date === right.date ? 0 : left.date < right.date ? 1 : -1,
  )
}

/** One domain file's text, or one entry by id; null when there is none. */
export async function showPatterns(
  workspace: PatternWorkspace,
  domainOrId: string,
): Promise<string | null> {
  const byDomain = await workspace.patterns
    .read(`${domainOrId.replace(/\.md$/, '')}.md`)
    .catch(() => null)
  if (byDomain !== null) return byDomain
  const entry = (await listPatterns(workspace, { all: true })).find(
    (item) => item.id === domainOrId,
  )
  if (!entry) return null
  const { renderPatternEntry } = await import('../core/pattern-entry.ts')
  return renderPatternEntry(entry)
}

/**
 * The read-before-act index SessionStart shows (seed 002 item 1, docs/design/origins.md), or ''.
 */
export async function patternIndex(workspace: PatternWorkspace): Promise<string> {
  if (!workspace.settings.enabled || workspace.settings.index_entries === 0) return ''
  return renderPatternIndex(await listPatterns(workspace), workspace.settings.index_entries)
}
