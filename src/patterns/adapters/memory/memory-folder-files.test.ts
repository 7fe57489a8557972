import { testFolderFiles } from '../../ports/folder-files.contract.ts'
import { createMemoryFolderFiles } from './memory-folder-files.ts'

testFolderFiles({ name: 'memory', make: async () => ({ files: createMemoryFolderFiles() }) })
