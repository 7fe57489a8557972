/**
 * Contextual reminders (prospective memory, seed 000 phase 5, docs/design/origins.md): a trigger
 * fires when one of the keywords in its `when` appears in an active task's name, slug or tags, or
 * in a bookmark.
 */
import type { Bookmark, Trigger } from '../sleep-state.ts'
import type { TaskSummary } from '../tasks.ts'

/** The lowercase keywords of a trigger's `when`, split on spaces and commas. */
export function triggerKeywords(when: string): string[] {
  return when
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((keyword) => keyword !== '')
}

/** True while the trigger may still fire (`fired_count < max_fires`). */
export function isTriggerLive(trigger: Trigger): boolean {
  return trigger.fired_count < trigger.max_fires
}

/** Live triggers with a keyword found (as a substring) in the current work, in ledger order. */
export function matchTriggers(
  triggers: Trigger[],
  activeTasks: TaskSummary[],
  bookmarks: Bookmark[],
): Trigger[] {
  const haystack = [
    ...activeTasks.flatMap((task) => [task.name, task.slug, ...task.tags]),
    ...bookmarks.map((bookmark) => bookmark.message),
  ].map((text) => text.toLowerCase())
  if (haystack.length === 0) return []
  return triggers.filter(
    (trigger) =>
      isTriggerLive(trigger) &&
      triggerKeywords(trigger.when).some((keyword) =>
        haystack.some((text) => text.includes(keyword)),
      ),
  )
}
