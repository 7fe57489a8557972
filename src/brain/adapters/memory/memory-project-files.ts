/** The project's own files held in a Map: the fake beside the in-memory brain. */
import { SomnusError } from '../../../engine/core/errors.ts'
import { refuseEscapingPath } from '../../../engine/ports/brain-files.ts'
import type { ProjectFiles } from '../../../engine/ports/project-files.ts'

/** A `ProjectFiles` in memory, optionally seeded with `initial` (path to text). */
export function createMemoryProjectFiles(initial: Record<string, string> = {}): ProjectFiles & {
  /** A copy of every file, for assertions. */
  snapshot(): Record<string, string>
} {
  const files = new Map(Object.entries(initial))
  return {
    read: async (path) => {
      refuseEscapingPath(path, 'the project folder')
      const parts = path.split('/')
      for (let end = 1; end < parts.length; end += 1) {
        const folder = parts.slice(0, end).join('/')
        if (files.has(folder)) {
          throw new SomnusError(
            'ENVIRONMENT',
            `Cannot use ${path}: ${folder} is a file, but Somnus needs a folder there. Move or rename ${folder}, then run the command again.`,
          )
        }
      }
      return files.get(path) ?? null
    },
    write: async (path, text) => {
      refuseEscapingPath(path, 'the project folder')
      files.set(path, text)
    },
    folders: async (path) => {
      refuseEscapingPath(path, 'the project folder')
      const prefix = path === '' ? '' : `${path.replace(/\/$/, '')}/`
      const names = new Set<string>()
      for (const file of files.keys()) {
        if (!file.startsWith(prefix)) continue
        const rest = file.slice(prefix.length).split('/')
        if (rest.length > 1 && rest[0]) names.add(rest[0])
      }
      return [...names].sort()
    },
    snapshot: () => Object.fromEntries(files),
  }
}
