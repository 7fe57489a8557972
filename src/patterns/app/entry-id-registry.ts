/**
 * The ids a pattern folder has ever issued, and those whose entries left the folder for a skill
 * (`.somnus-entry-ids` in the folder, one `<id>` or `<id> crystallized` per line). An id is never
 * issued twice, even after its entry is gone, so a skill's citation always names one entry; and a
 * lesson already crystallized is not written back when its session is encoded again.
 */
import type { PatternWorkspace } from './pattern-workspace.ts'

const REGISTRY = '.somnus-entry-ids'

/** What the folder has issued and crystallized. */
export interface EntryIds {
  issued: Set<string>
  crystallized: Set<string>
}

/** Reads the registry (and the ids the files hold, for folders written before it existed). */
export async function readEntryIds(
  workspace: Pick<PatternWorkspace, 'patterns'>,
  inFiles: Iterable<string> = [],
): Promise<EntryIds> {
  const ids: EntryIds = { issued: new Set(inFiles), crystallized: new Set() }
  const text = (await workspace.patterns.read(REGISTRY)) ?? ''
  for (const line of text.split('\n')) {
    const [id, state] = line.trim().split(/\s+/)
    if (!id || !/^[\w.-]+$/.test(id)) continue
    ids.issued.add(id)
    if (state === 'crystallized') ids.crystallized.add(id)
  }
  return ids
}

/** Records `issued` ids and `crystallized` ones (call under the folder's lock). */
export async function recordEntryIds(
  workspace: Pick<PatternWorkspace, 'patterns'>,
  change: { issued?: readonly string[]; crystallized?: readonly string[] },
): Promise<void> {
  const issued = change.issued ?? []
  const crystallized = change.crystallized ?? []
  if (issued.length === 0 && crystallized.length === 0) return
  const before = (await workspace.patterns.read(REGISTRY)) ?? ''
  const lines = [...issued, ...crystallized.map((id) => `${id} crystallized`)]
  const separator = before === '' || before.endsWith('\n') ? '' : '\n'
  await workspace.patterns.write(REGISTRY, `${before}${separator}${lines.join('\n')}\n`)
}
