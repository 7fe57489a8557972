/**
 * Keeps a digest within its token budget: when the rendered markdown is over, the least useful
 * items go first (extra prompts and decisions, older commits, extra gotchas, file lists), each
 * list keeping a floor, so a long session loses detail, never a whole kind of memory.
 */
import { countTokens } from '../tokens.ts'
import { renderSessionDigest } from './render-session-digest.ts'
import type { DigestItem, SessionDigest } from './session-digest.ts'

type ListName = 'decisions' | 'gotchas' | 'commits' | 'done' | 'open' | 'preferences' | 'workflow'

/** Which list to shorten next and how many items it keeps at least, cheapest loss first. */
const TRIM_ORDER: ReadonlyArray<[ListName | 'changes', number]> = [
  ['workflow', 0],
  ['preferences', 4],
  ['decisions', 5],
  ['changes', 8],
  ['commits', 6],
  ['gotchas', 6],
  ['decisions', 3],
  ['preferences', 2],
  ['changes', 4],
  ['gotchas', 4],
  ['commits', 3],
  ['done', 4],
  ['open', 4],
  ['decisions', 1],
  ['gotchas', 2],
  ['changes', 2],
  ['done', 2],
  ['open', 2],
]

/** Tokens a bullet costs besides its text and sources (marker, comment, newline). */
const BULLET_OVERHEAD = 8

/** `digest` with items dropped until its markdown fits in `maxTokens` (or every floor is hit). */
export function fitToBudget(digest: SessionDigest, maxTokens: number): SessionDigest {
  let current = digest
  for (let attempt = 0; attempt < 3; attempt++) {
    const total = countTokens(renderSessionDigest(current))
    if (total <= maxTokens) return current
    current = trimmed(current, total - maxTokens)
  }
  return current
}

/** A copy of `digest` with about `excess` tokens of items removed. */
function trimmed(digest: SessionDigest, excess: number): SessionDigest {
  const lists: Record<ListName, DigestItem[]> = {
    decisions: [...digest.decisions],
    gotchas: [...digest.gotchas],
    commits: [...digest.commits],
    done: [...digest.done],
    open: [...digest.open],
    preferences: [...digest.preferences],
    workflow: [...(digest.workflow ?? [])],
  }
  const changes = digest.changes.map((area) => ({ area: area.area, items: [...area.items] }))
  let saved = 0
  for (const [name, floor] of TRIM_ORDER) {
    while (saved < excess) {
      if (name === 'changes') {
        const removed = dropChange(changes, floor)
        if (removed === null) break
        saved += cost(removed)
        continue
      }
      const list = lists[name]
      if (list.length <= floor) break
      // Commits drop the oldest; other lists are ordered best first, so the last goes.
      const removed = name === 'commits' ? list.shift() : list.pop()
      if (removed !== undefined) saved += cost(removed)
    }
  }
  return { ...digest, ...lists, changes: changes.filter((area) => area.items.length > 0) }
}

/** Drops the last item of the area with most items while more than `floor` items remain in all. */
function dropChange(changes: SessionDigest['changes'], floor: number): DigestItem | null {
  const total = changes.reduce((sum, area) => sum + area.items.length, 0)
  if (total <= floor) return null
  let widest = changes[changes.length - 1]
  for (const area of changes)
    if (widest === undefined || area.items.length > widest.items.length) widest = area
  return widest?.items.pop() ?? null
}

function cost(entry: DigestItem): number {
  return countTokens(entry.text) + entry.sources.length * 4 + BULLET_OVERHEAD
}
