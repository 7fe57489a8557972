import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testBrainFiles } from '../../ports/brain-files.contract.ts'
import { createFsBrainFiles } from './fs-brain-files.ts'

testBrainFiles('fs', async () => createFsBrainFiles(await mkdtemp(join(tmpdir(), 'somnus-files-'))))
