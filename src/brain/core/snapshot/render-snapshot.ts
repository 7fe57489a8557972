/**
 * The SessionStart snapshot, built purely from data already read: the sections of seed 001
 * (docs/design/origins.md) in its order, each rendered full / summary / one line, then fitted to
 * the character budget by demotion.
 */
import { HEAD_CORE_FILES } from '../../../engine/core/core-files.ts'
import { levelFor } from '../../../engine/core/scoring/scoring-policy.ts'
import { withSomnusCommand } from '../somnus-command.ts'
import { isTaskActive, type TaskSummary } from '../tasks.ts'
import { fitToBudget, formText, SECTION_SEPARATOR } from './budget.ts'
import { textComparator } from './compare-text.ts'
import {
  knowledgeIndexSection,
  pinnedKnowledgeSection,
  warmKnowledgeSection,
} from './knowledge-sections.ts'
import {
  changelogSection,
  featuresSection,
  releaseSection,
  sleepStateSection,
} from './record-sections.ts'
import { recentSessionsSection } from './session-sections.ts'
import type { SectionDraft, SnapshotInput, SnapshotResult } from './snapshot-types.ts'
import { matchTriggers } from './triggers.ts'
import {
  activeTasksSection,
  bookmarksSection,
  coreFileSection,
  extendedCoreSection,
  remindersSection,
} from './work-sections.ts'

/** The first line of every snapshot (seed 001). */
export const SNAPSHOT_HEADER = '# Agent Context — Auto-loaded'

/** `byRecentUpdate` of tasks.ts, comparing slugs without loading the collator. */
function byRecentUpdate(tasks: TaskSummary[]) {
  const compareSlugs = textComparator(tasks.map((task) => task.slug))
  return (a: TaskSummary, b: TaskSummary): number => {
    const left = a.updated ?? a.created ?? ''
    const right = b.updated ?? b.created ?? ''
    if (left !== right) return left < right ? 1 : -1
    return compareSlugs(a.slug, b.slug)
  }
}

/**
 * Every section in output order, each rendered in all its forms (exported for tests). A full form
 * longer than `limit` can never be shown, so it is rendered only until it passes `limit`. The
 * default: what soul, user and memory leave of the budget, since they are shown in full whenever
 * they fit on their own (the full Sleep State of 1,000 sessions is ~300 KB, built only to go).
 */
export function draftSnapshotSections(input: SnapshotInput, fullLimit?: number): SectionDraft[] {
  const head = headSections(input)
  const limit = fullLimit ?? fullFormLimit(head, input.budgetChars)
  const active = input.tasks.filter(isTaskActive)
  const activeTasks = active.sort(byRecentUpdate(active))
  const knowledgeContext = {
    access: input.state.knowledge_access,
    activeTaskTags: new Set(
      activeTasks.flatMap((task) => task.tags.map((tag) => tag.toLowerCase())),
    ),
    now: input.now,
    limit,
  }
  const matched = matchTriggers(input.state.triggers, activeTasks, input.state.bookmarks)
  return [
    ...head,
    // Listed only once a sleep has kept a digest, so a brain without any shows what it always did.
    ...(input.digests && input.digests.recent.length > 0
      ? [recentSessionsSection(input.digests.recent, input.digests.total)]
      : []),
    extendedCoreSection(input.extendedCore, limit),
    activeTasksSection(activeTasks, limit),
    bookmarksSection(input.state.bookmarks, limit),
    remindersSection(matched, limit),
    sleepStateSection(input.state, levelFor(input.policy, input.state.debt), input.history, limit),
    changelogSection(input.changelog),
    releaseSection(input.releases),
    featuresSection(input.features, limit),
    knowledgeIndexSection(input.knowledge, knowledgeContext),
    warmKnowledgeSection(input.knowledge, knowledgeContext),
    pinnedKnowledgeSection(input.knowledge, limit),
  ]
}

/** Soul, user and memory: shown first, and the last to give way. */
function headSections(input: SnapshotInput): SectionDraft[] {
  return [
    coreFileSection({
      name: 'Soul',
      title: 'Soul (Agent Identity, Principles, Rules)',
      path: HEAD_CORE_FILES.soul,
      text: input.head.soul,
      importance: 14,
    }),
    coreFileSection({
      name: 'User',
      title: 'User (Preferences, Project Details, Rules)',
      path: HEAD_CORE_FILES.user,
      text: input.head.user,
      importance: 13,
    }),
    coreFileSection({
      name: 'Memory',
      title: 'Memory (Technical Decisions, Known Issues, Session Log)',
      path: HEAD_CORE_FILES.memory,
      text: input.head.memory,
      importance: 12,
    }),
  ]
}

/**
 * The longest full form of another section that could be shown. `fitToBudget` demotes the head
 * only once every other section is gone, so when header and head fit on their own the head stays
 * full and any other full form must fit in what is left; otherwise the whole budget.
 */
function fullFormLimit(head: SectionDraft[], budget: number): number {
  let headChars = SNAPSHOT_HEADER.length
  for (const draft of head) {
    if (draft.full !== '') headChars += SECTION_SEPARATOR.length + draft.full.length
  }
  return headChars <= budget ? budget - headChars : budget
}

/**
 * The drafts with `command` in every command they name, so the budget is fitted to what is shown
 * in one pass (a long command makes some forms longer, and the fit demotes accordingly).
 */
function withCommandIn(drafts: SectionDraft[], command: string | undefined): SectionDraft[] {
  if (command === undefined || command === 'somnus') return drafts
  return drafts.map((draft) => ({
    ...draft,
    full: withSomnusCommand(draft.full, command),
    summary: withSomnusCommand(draft.summary, command),
    line: withSomnusCommand(draft.line, command),
  }))
}

/** Renders the snapshot within `input.budgetChars` (the empty string if not even the header fits). */
export function renderSnapshot(input: SnapshotInput): SnapshotResult {
  const drafts = withCommandIn(draftSnapshotSections(input), input.command)
  if (SNAPSHOT_HEADER.length > input.budgetChars) {
    return {
      text: '',
      firedTriggerIds: [],
      sections: drafts.map((draft) => ({ name: draft.name, form: 'omitted', chars: 0 })),
    }
  }
  const forms = fitToBudget(drafts, input.budgetChars, SNAPSHOT_HEADER.length)
  const parts = [SNAPSHOT_HEADER]
  const firedTriggerIds: string[] = []
  const sections = drafts.map((draft, index) => {
    const form = forms[index] ?? 'omitted'
    const text = formText(draft, form)
    if (text !== '') parts.push(text)
    if (draft.triggerIds && (form === 'full' || form === 'summary')) {
      firedTriggerIds.push(...draft.triggerIds[form])
    }
    return { name: draft.name, form, chars: text.length }
  })
  return { text: parts.join(SECTION_SEPARATOR), firedTriggerIds, sections }
}
