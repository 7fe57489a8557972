/**
 * The transcripts beside a session's own in Claude Code's project folder
 * (~/.claude/projects/<slug>/<session id>.jsonl), for SessionStart's catch-up. Only names are
 * listed and entries lstat'ed: a link is never followed, a FIFO never opened.
 */
import { lstatSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type {
  ListSiblingTranscripts,
  SiblingTranscript,
} from '../../ports/session-transcripts-folder.ts'

/** Claude Code names a session's transcript after its id, a UUID. */
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/** See ports/session-transcripts-folder.ts. */
export const listSiblingTranscripts: ListSiblingTranscripts = (transcriptPath) => {
  const folder = dirname(transcriptPath)
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  const found: SiblingTranscript[] = []
  for (const name of names) {
    const match = SESSION_FILE.exec(name)
    if (match === null) continue
    const path = join(folder, name)
    try {
      const info = lstatSync(path)
      if (!info.isFile()) continue
      found.push({ sessionId: match[1] as string, path, modifiedMs: info.mtimeMs })
    } catch {
      // Gone between the listing and the look: nothing to catch up.
    }
  }
  return found
}
