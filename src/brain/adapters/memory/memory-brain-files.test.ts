import { testBrainFiles } from '../../../engine/ports/brain-files.contract.ts'
import { createMemoryBrainFiles } from './memory-brain-files.ts'

testBrainFiles({ name: 'memory', make: async () => createMemoryBrainFiles() })
