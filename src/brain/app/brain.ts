/** Everything a use case needs to work on one brain, passed in so tests can supply their own. */
import type { Config } from '../../engine/core/config.ts'
import type { BrainFiles } from '../../engine/ports/brain-files.ts'
import type { Clock } from '../../engine/ports/clock.ts'
import type { IdGenerator } from '../../engine/ports/id-generator.ts'
import type { SleepStateStore } from '../ports/sleep-state-store.ts'
import type { UnitOfWork } from '../ports/unit-of-work.ts'

export { CONTEXT_DIR_NAME } from '../../engine/core/brain-layout.ts'

/** One agent's brain: its files, its sleep ledger, settings and the world's clock and ids. */
export interface Brain {
  /** Absolute path of the `_agent_context` folder. */
  readonly root: string
  /** Absolute path of the project folder that holds it. */
  readonly projectDir: string
  readonly config: Config
  readonly state: SleepStateStore
  readonly files: BrainFiles
  /** Applies a consolidation's documents and ledger change all-or-nothing. */
  readonly unitOfWork: UnitOfWork
  readonly clock: Clock
  readonly ids: IdGenerator
  /** Reports a problem that did not stop the work (corrupt file set aside, transcript skipped). */
  readonly warn: (message: string) => void
  /**
   * Problems with the settings the user must see (a bad `somnus.json`, keys a repository may not
   * set): SessionStart shows them above the snapshot, the CLI on stderr.
   */
  readonly notices?: readonly string[]
}
