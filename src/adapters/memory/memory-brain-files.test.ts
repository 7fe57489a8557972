import { testBrainFiles } from '../../ports/brain-files.contract.ts'
import { createMemoryBrainFiles } from './memory-brain-files.ts'

testBrainFiles('memory', async () => createMemoryBrainFiles())
