/** The files Somnus owns in the project folder, on disk, confined to that folder. */
import { readdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { SomnusError } from '../../core/errors.ts'
import type { ProjectFiles } from '../../ports/project-files.ts'
import { writeFileAtomicSync } from './atomic-write.ts'
import { confineTo } from './confined-path.ts'

/** A `ProjectFiles` for the project folder `projectDir`. */
export function createFsProjectFiles(projectDir: string): ProjectFiles {
  const confined = confineTo(projectDir)
  return {
    async read(path) {
      const absolute = confined.resolve(path)
      const bytes = confined.readBytes(absolute)
      if (bytes === null) refuseFileOnTheWay(projectDir, absolute)
      return bytes?.toString('utf8') ?? null
    },
    async write(path, text) {
      writeFileAtomicSync(confined.prepareWrite(confined.resolve(path)), text)
    },
    async folders(path) {
      const real = confined.existingFolder(confined.resolve(path))
      if (real === null) return []
      return readdirSync(real, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    },
  }
}

/** Throws ENVIRONMENT when a folder between `root` and `absolute` exists as something else. */
function refuseFileOnTheWay(root: string, absolute: string): void {
  for (let folder = dirname(absolute); folder.length > root.length; folder = dirname(folder)) {
    const kind = kindOf(folder)
    if (kind === 'missing') continue
    if (kind === 'folder') return
    throw new SomnusError(
      'ENVIRONMENT',
      `Cannot use ${absolute}: ${folder} is a file, but Somnus needs a folder there. Move or rename ${folder}, then run the command again.`,
      { details: { path: folder } },
    )
  }
}

function kindOf(path: string): 'missing' | 'folder' | 'other' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'other'
  } catch {
    return 'missing'
  }
}
