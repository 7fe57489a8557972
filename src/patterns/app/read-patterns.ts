/** Reading every domain file of a project's patterns. */
import { type PatternFile, parsePatternFile } from '../core/pattern-entry.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'

/** Domain → parsed file, for every `<domain>.md` in the pattern folder. */
export async function readPatternFiles(
  workspace: Pick<PatternWorkspace, 'patterns'>,
): Promise<Map<string, PatternFile>> {
  const files = new Map<string, PatternFile>()
  for (const name of await workspace.patterns.list('', '.md')) {
    const text = await workspace.patterns.read(name)
    if (text === null) continue
    const domain = name.slice(0, -'.md'.length)
    files.set(domain, parsePatternFile(text, domain))
  }
  return files
}
