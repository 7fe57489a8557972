/**
 * A `UnitOfWork` that applies a consolidation at once, with nothing to journal: right for stores
 * that cannot be half-written by a crash (memory, tests, dry runs). Conflicts are decided as on
 * disk: a document that changed after the plan keeps its text, and the planned one is kept aside.
 */
import { documentPath } from '../../../engine/core/brain-layout.ts'
import type { BrainFiles } from '../../../engine/ports/brain-files.ts'
import type { Clock } from '../../../engine/ports/clock.ts'
import type { IdGenerator } from '../../../engine/ports/id-generator.ts'
import { applyConsolidation } from '../../core/sleep-run/apply-consolidation.ts'
import type { SleepStateStore } from '../../ports/sleep-state-store.ts'
import type { DocumentChange, UnitOfWork } from '../../ports/unit-of-work.ts'

/** A `UnitOfWork` over `files` and `state` that applies at once. */
export function createMemoryUnitOfWork(options: {
  files: BrainFiles
  state: SleepStateStore
  clock: Clock
  ids: IdGenerator
  warn: (message: string) => void
}): UnitOfWork & {
  /** Planned texts of the documents that had changed, by seed path, oldest first. */
  keptAside(): { where: string; text: string }[]
} {
  const { files, state, clock, ids, warn } = options
  const keptAside: { where: string; text: string }[] = []
  const conflictOf = async (change: DocumentChange): Promise<string | null> => {
    const current = await files.read(change.document)
    if (current === change.text) return null
    if (current === change.before) return null
    const where = documentPath(change.document)
    keptAside.push({ where, text: change.text })
    warn(
      `${files.where(change.document)} changed after the sleep run planned its edit, so it was left as it is; the planned text was kept aside.`,
    )
    return where
  }
  return {
    async commit(consolidation) {
      const conflicts: string[] = []
      const writes: DocumentChange[] = []
      for (const change of consolidation.documents) {
        const conflict = await conflictOf(change)
        if (conflict !== null) conflicts.push(conflict)
        else writes.push(change)
      }
      for (const change of writes) await files.write(change.document, change.text)
      await state.update((current) => {
        const applied = applyConsolidation(current, {
          runId: consolidation.id,
          change: consolidation.ledger,
          now: clock.now(),
          nextTriggerId: () => ids.next('trg'),
        })
        return applied === null
          ? { state: current, result: undefined }
          : { ...applied, result: undefined }
      })
      return { conflicts }
    },
    hasInterrupted: async () => false,
    finishInterrupted: async () => null,
    keptAside: () => [...keptAside],
  }
}
