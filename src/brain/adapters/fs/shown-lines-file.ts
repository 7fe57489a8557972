/**
 * What each recent session's SessionStart showed, in `_agent_context/state/.recall-shown.json`
 * (machine state, ignored by git), so prompt recall never repeats a line the agent already has.
 * Kept for the newest few sessions; written whole by atomic rename. Two sessions starting at once
 * may lose one's lines: then a line may be shown twice, which costs context, never correctness.
 */
import { writeFileAtomicSync } from '../../../engine/adapters/fs/atomic-write.ts'
import { confineTo } from '../../../engine/adapters/fs/confined-path.ts'

const FILE = 'state/.recall-shown.json'
/** Sessions remembered. */
const KEEP_SESSIONS = 8

type Stored = [session: string, lines: string[]][]

/** The store of shown lines of the brain at `root`. */
export function shownLinesFile(root: string) {
  const confined = confineTo(root)
  const path = confined.resolve(FILE)
  const read = (): Stored => {
    try {
      const parsed = JSON.parse(confined.readText(path) ?? '[]') as unknown
      return Array.isArray(parsed)
        ? parsed.filter(
            (item): item is Stored[number] =>
              Array.isArray(item) && typeof item[0] === 'string' && Array.isArray(item[1]),
          )
        : []
    } catch {
      return []
    }
  }
  return {
    /** The lines session `session` was shown (empty when unknown). */
    async linesOf(session: string): Promise<string[]> {
      return (read().find(([id]) => id === session)?.[1] ?? []).filter(
        (line): line is string => typeof line === 'string',
      )
    },
    /** Records what `session` was shown, dropping the oldest sessions past the few kept. */
    async remember(session: string, lines: string[]): Promise<void> {
      const next: Stored = [[session, lines], ...read().filter(([id]) => id !== session)]
      // A cache: losing it to a power cut only lets a line be shown twice, so no fsync.
      writeFileAtomicSync(
        confined.prepareWrite(path),
        JSON.stringify(next.slice(0, KEEP_SESSIONS)),
        { durable: false },
      )
    },
  }
}
