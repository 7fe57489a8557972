/**
 * "All of these changes or none": a consolidation's documents and its ledger change land together
 * or not at all. Adapters: the fs journal (fs-unit-of-work.ts: one atomic write is the commit
 * point, replayed after a crash), memory (applies at once); a SQL store makes it one transaction.
 */
import type { BrainDocument } from '../../engine/core/brain-layout.ts'
import type { LedgerChange } from '../core/sleep-run/apply-consolidation.ts'

export type { LedgerChange } from '../core/sleep-run/apply-consolidation.ts'

/** One document a consolidation replaces: the text its plan was made from, and the new text. */
export interface DocumentChange {
  document: BrainDocument
  /** The text the plan was made from (null: the document did not exist). */
  before: string | null
  text: string
}

/** One consolidation, ready to apply. */
export interface Consolidation {
  /** The run's id: applying the same id twice changes the ledger once. */
  id: string
  /** When it was planned (ISO). */
  createdAt: string
  documents: DocumentChange[]
  ledger: LedgerChange
}

/** What applying a consolidation did. */
export interface Applied {
  /**
   * Documents left as they were because they changed after the plan was made, by their path in
   * the brain (`core/2.memory.md`); the planned text was kept aside and a warning says where.
   */
  conflicts: string[]
}

/** Applies consolidations all-or-nothing. The caller holds the brain's consolidation lock. */
export interface UnitOfWork {
  /**
   * Applies every document change and the ledger change, or none if the process dies before the
   * commit point; after it, the consolidation completes even across a crash (see `finishInterrupted`).
   * A document that no longer holds its `before` text keeps what it holds (a conflict).
   */
  commit(consolidation: Consolidation): Promise<Applied>
  /** True when a committed consolidation was never finished (its process died). Cheap when not. */
  hasInterrupted(): Promise<boolean>
  /**
   * Finishes a consolidation whose process died after its commit point, and clears what one that
   * died before it left behind. Null when there was none to finish.
   */
  finishInterrupted(): Promise<Applied | null>
}
