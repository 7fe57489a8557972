/**
 * Keeps a digest within its token budget: when the rendered markdown is over, the least useful
 * items go first (extra prompts and decisions, older commits, extra gotchas, file lists), each
 * list keeping a floor, so a long session loses detail, never a whole kind of memory.
 */
import { countTokens } from '../tokens.ts'
import { renderSessionDigest } from './render-session-digest.ts'
import type { DigestItem, SessionDigest } from './session-digest.ts'

type ListName = 'decisions' | 'gotchas' | 'commits' | 'done' | 'open' | 'preferences' | 'workflow'

/**
 * Which list to shorten next and how many items it keeps at least, cheapest loss first: extra
 * gotchas and decisions, long file lists and older commits go before the state at the end and
 * the user's working style, which a next session needs whole.
 */
const TRIM_ORDER: ReadonlyArray<[ListName | 'changes', number]> = [
  ['gotchas', 6],
  ['decisions', 4],
  ['changes', 12],
  ['commits', 6],
  ['preferences', 3],
  ['gotchas', 4],
  ['changes', 8],
  ['done', 4],
  ['decisions', 3],
  ['open', 4],
  ['commits', 3],
  ['changes', 4],
  ['workflow', 0],
  ['preferences', 1],
  ['gotchas', 2],
  ['done', 2],
  ['open', 2],
  ['decisions', 1],
  ['changes', 2],
]

/** Characters per token in rendered digests (markdown, code spans, ids); most run 3.3 to 4. */
const CHARACTERS_PER_TOKEN = 3.4

/** Characters a bullet costs besides its text and sources (marker, comment, newline). */
const BULLET_OVERHEAD = 20

/**
 * `digest` with items dropped until its markdown fits in `maxTokens` (or every floor is hit).
 * Tokens are counted on the whole rendered text only, never per item: an item's cost is its
 * share of the characters at the text's own tokens-per-character rate.
 */
export function fitToBudget(digest: SessionDigest, maxTokens: number): SessionDigest {
  let current = digest
  // First by characters at a rate that digests rarely beat, so one count usually settles it.
  let rate = 1 / CHARACTERS_PER_TOKEN
  let markdown = renderSessionDigest(current)
  if (markdown.length * rate > maxTokens) {
    current = trimmed(current, markdown.length - maxTokens / rate)
    markdown = renderSessionDigest(current)
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const total = countTokens(markdown)
    if (total <= maxTokens) return current
    rate = total / Math.max(1, markdown.length)
    // Aim a little under the budget so one more pass is rarely needed.
    current = trimmed(current, (total - maxTokens) / rate + 200)
    markdown = renderSessionDigest(current)
  }
  return current
}

/** A copy of `digest` with about `excess` characters of items removed. */
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
  return entry.text.length + entry.sources.length * 10 + BULLET_OVERHEAD
}
