import { fixedClock } from '../../../engine/ports/clock.ts'
import { sequentialIds } from '../../../engine/ports/id-generator.ts'
import { testUnitOfWork } from '../../ports/unit-of-work.contract.ts'
import { createMemoryBrainFiles } from './memory-brain-files.ts'
import { createMemorySleepStateStore } from './memory-sleep-state-store.ts'
import { createMemoryUnitOfWork } from './memory-unit-of-work.ts'

testUnitOfWork({
  name: 'memory',
  make: async () => {
    const files = createMemoryBrainFiles()
    const state = createMemorySleepStateStore()
    const unitOfWork = createMemoryUnitOfWork({
      files,
      state,
      clock: fixedClock('2026-03-01T12:00:00.000Z'),
      ids: sequentialIds(),
      warn: () => {},
    })
    return { unitOfWork, files, state }
  },
})
