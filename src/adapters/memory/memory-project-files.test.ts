import { testProjectFiles } from '../../ports/project-files.contract.ts'
import { createMemoryProjectFiles } from './memory-project-files.ts'

testProjectFiles('memory', async () => ({ files: createMemoryProjectFiles() }))
