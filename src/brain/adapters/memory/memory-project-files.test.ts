import { testProjectFiles } from '../../../engine/ports/project-files.contract.ts'
import { createMemoryProjectFiles } from './memory-project-files.ts'

testProjectFiles({ name: 'memory', make: async () => ({ files: createMemoryProjectFiles() }) })
