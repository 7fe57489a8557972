/**
 * Brings a recall shelf up to date with its sources: a source whose stamp changed is indexed
 * again, a new one is added, a vanished one is removed; an unchanged one costs a stamp compare.
 */
import type { RecallShelf, RecallSources } from '../../ports/recall-sources.ts'

/**
 * Entries indexed between two saves: a first build of a large store (a 200,000-line creature)
 * writes its segments as it goes, so its memory is bounded by this many entries, not the store.
 * A refresh killed midway keeps what was saved; the rest is indexed next time.
 */
const CHECKPOINT_ENTRIES = 20_000

/** What one refresh did. */
export interface RefreshReport {
  /** Sources indexed (new or changed). */
  indexed: number
  /** Sources gone from the store, and so from the shelf. */
  removed: number
  /** Entries the shelf holds now. */
  entries: number
}

/**
 * Re-indexes what changed; saves the shelf when anything did. A source that fails to read is
 * reported through `warn` and left as it was on the shelf (tried again next time).
 */
export async function refreshRecallShelf(
  shelf: RecallShelf,
  sources: RecallSources,
  warn: (message: string) => void,
): Promise<RefreshReport> {
  const listed = await sources.list()
  const seen = new Set<string>()
  let indexed = 0
  let removed = 0
  let unsaved = 0
  for (const source of listed) {
    seen.add(source.key)
    const known = shelf.stamps.get(source.key)
    if (known?.stamp === source.stamp) continue
    let entries: Awaited<ReturnType<RecallSources['entries']>>
    try {
      entries = await sources.entries(source)
    } catch (error) {
      warn(`recall: ${source.key} not indexed: ${(error as Error).message}`)
      continue
    }
    if (known) await shelf.index.remove(known.ids)
    await shelf.index.put(entries)
    shelf.stamps.set(source.key, { stamp: source.stamp, ids: entries.map((entry) => entry.id) })
    indexed += 1
    unsaved += entries.length
    if (unsaved >= CHECKPOINT_ENTRIES) {
      await shelf.save()
      unsaved = 0
    }
  }
  for (const [key, known] of shelf.stamps) {
    if (seen.has(key)) continue
    await shelf.index.remove(known.ids)
    shelf.stamps.delete(key)
    removed += 1
  }
  if (indexed > 0 || removed > 0 || !shelf.existed) await shelf.save()
  let entries = 0
  for (const known of shelf.stamps.values()) entries += known.ids.length
  return { indexed, removed, entries }
}
