import { testFolderFiles } from '../../ports/folder-files.contract.ts'
import { createMemoryFolderFiles } from './memory-folder-files.ts'

testFolderFiles('memory', async () => ({ files: createMemoryFolderFiles() }))
