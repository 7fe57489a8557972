/** A whole `Brain` in memory (files, ledger, fixed clock, sequential ids) for use-case tests. */
import { createMemoryBrainFiles } from '../../src/brain/adapters/memory/memory-brain-files.ts'
import { createMemorySleepStateStore } from '../../src/brain/adapters/memory/memory-sleep-state-store.ts'
import { createMemoryUnitOfWork } from '../../src/brain/adapters/memory/memory-unit-of-work.ts'
import type { Brain } from '../../src/brain/app/brain.ts'
import type { SleepHistoryEntry, SleepState } from '../../src/brain/core/sleep-state.ts'
import { type Config, resolveConfig } from '../../src/engine/core/config.ts'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { sequentialIds } from '../../src/engine/ports/id-generator.ts'

/** A brain at `/project/_agent_context` holding `files`, with the clock stopped at `now`. */
export function memoryBrain(
  options: {
    files?: Record<string, string>
    state?: SleepState
    history?: SleepHistoryEntry[]
    now?: string
    config?: Partial<Config>
  } = {},
): Brain & { files: ReturnType<typeof createMemoryBrainFiles>; warnings: string[] } {
  const warnings: string[] = []
  const files = createMemoryBrainFiles(options.files ?? {})
  const state = createMemorySleepStateStore({ state: options.state, history: options.history })
  const clock = fixedClock(options.now ?? '2026-03-01T12:00:00.000Z')
  const ids = sequentialIds()
  const warn = (message: string) => {
    warnings.push(message)
  }
  return {
    root: '/project/_agent_context',
    projectDir: '/project',
    config: {
      ...resolveConfig({ fileText: null, filePath: 'somnus.json', env: {} }),
      ...options.config,
    },
    files,
    state,
    unitOfWork: createMemoryUnitOfWork({ files, state, clock, ids, warn }),
    clock,
    ids,
    warn,
    warnings,
  }
}
