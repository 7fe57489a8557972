/**
 * The transcripts beside a session's own in Claude Code's project folder
 * (~/.claude/projects/<slug>/<session id>.jsonl), for SessionStart's catch-up. Only names are
 * listed and entries lstat'ed: a link is never followed, a FIFO never opened. The folder is
 * streamed (`opendir`), never listed whole: a folder of 100,000 entries must not cost the hook
 * seconds, so reading stops after SIBLING_ENTRIES_READ_MAX entries.
 */
import { type Dir, lstatSync, opendirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type {
  ListSiblingTranscripts,
  SiblingTranscript,
} from '../../ports/session-transcripts-folder.ts'

/**
 * At most this many folder entries are read per SessionStart (any name, in the file system's
 * order); the newest among the transcripts read are caught up. A real project folder holds a few
 * hundred sessions (each a `.jsonl` and maybe a folder of sub-agents).
 */
export const SIBLING_ENTRIES_READ_MAX = 2_000

/** Claude Code names a session's transcript after its id, a UUID. */
const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i

/** See brain/ports/session-transcripts-folder.ts. */
export const listSiblingTranscripts: ListSiblingTranscripts = (transcriptPath) => {
  const folder = dirname(transcriptPath)
  let dir: Dir
  try {
    dir = opendirSync(folder, { bufferSize: 256 })
  } catch {
    return []
  }
  const found: SiblingTranscript[] = []
  try {
    for (let read = 0; read < SIBLING_ENTRIES_READ_MAX; read += 1) {
      const entry = dir.readSync()
      if (entry === null) break
      const match = SESSION_FILE.exec(entry.name)
      if (match === null) continue
      const path = join(folder, entry.name)
      try {
        const info = lstatSync(path)
        if (!info.isFile()) continue
        found.push({ sessionId: match[1] as string, path, modifiedMs: info.mtimeMs })
      } catch {
        // Gone between the listing and the look: nothing to catch up.
      }
    }
  } catch {
    // The folder went away or became unreadable mid-listing: what was read stands.
  } finally {
    dir.closeSync()
  }
  return found
}
