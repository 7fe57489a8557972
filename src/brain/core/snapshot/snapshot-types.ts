/** The data the snapshot is built from and the shape of what it returns. */
import type {
  ChangelogEntry,
  CoreIndexEntry,
  ReleaseEntry,
} from '../../../engine/core/core-files.ts'
import type { ScoringPolicy } from '../../../engine/core/scoring/scoring-policy.ts'
import type { FeatureSummary } from '../features.ts'
import type { KnowledgeDocument } from '../knowledge.ts'
import type { SleepHistoryEntry, SleepState } from '../sleep-state.ts'
import type { TaskSummary } from '../tasks.ts'

/** How much of a section is shown: all, a digest, a one-line pointer, or nothing. */
export type SectionForm = 'full' | 'summary' | 'line' | 'omitted'

/** A JSON array file that may be malformed: the rows, or the problem to show instead. */
export type ListOrProblem<T> = { rows: T[] } | { problem: string }

/** Everything the snapshot shows, already read from the brain. */
export interface SnapshotInput {
  now: Date
  /** The whole text stays within this many characters. */
  budgetChars: number
  policy: ScoringPolicy
  /** Raw text of soul, user and memory (null when the file is missing). */
  head: { soul: string | null; user: string | null; memory: string | null }
  extendedCore: CoreIndexEntry[]
  /** All tasks; the snapshot keeps the active ones. */
  tasks: TaskSummary[]
  state: SleepState
  /** Consolidations, newest first. */
  history: SleepHistoryEntry[]
  changelog: ListOrProblem<ChangelogEntry>
  releases: ListOrProblem<ReleaseEntry>
  features: FeatureSummary[]
  knowledge: KnowledgeDocument[]
  /** The most recent session digests, newest first, and how many the brain holds. */
  digests?: { recent: DigestSummary[]; total: number }
  /**
   * How Claude runs Somnus, put in place of `somnus` in every command the snapshot names
   * (brain/core/somnus-command.ts) before the budget is fitted; default `somnus`.
   */
  command?: string
}

/** One section rendered in every form, before the budget picks one. Empty text: nothing to show. */
export interface SectionDraft {
  name: string
  /** Demotion order: lower values give way first. */
  importance: number
  /** Soul, user and memory: kept whole until every other section is gone. */
  head: boolean
  full: string
  summary: string
  line: string
  /** Trigger ids whose reminder text appears in each form (Contextual Reminders only). */
  triggerIds?: { full: string[]; summary: string[] }
}

/** What one section became. */
export interface SectionOutcome {
  name: string
  form: SectionForm
  chars: number
}

/** The finished snapshot. */
export interface SnapshotResult {
  text: string
  /** Triggers whose reminder the text shows: their `fired_count` goes up by one. */
  firedTriggerIds: string[]
  sections: SectionOutcome[]
}

/** A session digest as the snapshot lists it. */
export interface DigestSummary {
  /** `2026-02-11-258c7280`: the day and the session's first 8 characters. */
  slug: string
  /** The digest's one-liner (its frontmatter `summary`), when it has one. */
  summary: string | null
}
