/**
 * A session's digest from its files on disk: the main transcript, then every
 * `<session>/subagents/agent-*.jsonl` (sub-agent work and `agent-acompact-*` compaction runs),
 * read with one fixed buffer through the byte-level DigestLineReader, so reading costs about what
 * counting does and stays flat per megabyte whatever the session's size.
 */
import { basename, dirname, join } from 'node:path'
import { DigestLineReader } from '../../core/digest/digest-line-reader.ts'
import {
  type DigestFileKind,
  SessionDigestBuilder,
} from '../../core/digest/session-digest-builder.ts'
import { isSomnusError } from '../../core/errors.ts'
import type { ReadSessionDigest } from '../../ports/session-digests.ts'
import { listSubagentTranscripts, transcriptChunks } from './transcript-files.ts'

/** Chunks read between two turns of the event loop, so other work gets room during a long read. */
const CHUNKS_BETWEEN_TURNS = 16

/** More damaged lines than this share of the main file's lines make the session unreadable. */
const MAX_DAMAGED_SHARE = 0.05

/** Reads and digests one session (see engine/ports/session-digests.ts). */
export const readSessionDigest: ReadSessionDigest = async (transcriptPath, options = {}) => {
  const sessionId = basename(transcriptPath, '.jsonl')
  // A `since` that is not a date is the caller's mistake: the USAGE error propagates.
  const builder = new SessionDigestBuilder({
    sessionId,
    ...(options.since === undefined ? {} : { since: options.since }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  })
  const reader = new DigestLineReader(builder)
  try {
    const size = await sizeOf(transcriptPath)
    if (size === null) return { missing: true }
    if (options.maxBytes !== undefined && size > options.maxBytes)
      return {
        unreadable: `${transcriptPath} is ${size} bytes, over the ${options.maxBytes}-byte limit (transcript_max_bytes in somnus.json)`,
      }
    const found = await readFile(reader, transcriptPath, `${sessionId}.jsonl`, 'main')
    if (!found) return { missing: true }
    const damage = damageOf(reader, transcriptPath)
    if (damage !== null) return { unreadable: damage }
    for (const [path, name, kind] of await sessionFiles(transcriptPath, sessionId))
      await readFile(reader, path, name, kind)
    return { digest: builder.build(), skippedLines: reader.unparsableLines }
  } catch (error) {
    if (isSomnusError(error)) return { unreadable: error.message }
    if (error instanceof Error && 'code' in error) return { unreadable: error.message }
    throw error
  }
}

/** Feeds one file to the reader; false when it does not exist. */
async function readFile(
  reader: DigestLineReader,
  path: string,
  name: string,
  kind: DigestFileKind,
): Promise<boolean> {
  if (!(await exists(path))) return false
  reader.beginFile(name, kind)
  let chunks = 0
  for (const chunk of transcriptChunks(path)) {
    reader.push(chunk)
    if (++chunks % CHUNKS_BETWEEN_TURNS === 0) await nextTurn()
  }
  return true
}

/** Why the main file cannot be used, or null: no record in it, or too many damaged lines. */
function damageOf(reader: DigestLineReader, path: string): string | null {
  const damaged = reader.unparsableLines
  if (damaged === 0) return null
  if (damaged === reader.lines)
    return `The transcript ${path} holds no readable record (${damaged} damaged lines). Check that it is a Claude Code .jsonl transcript.`
  if (damaged > reader.lines * MAX_DAMAGED_SHARE)
    return `The transcript ${path} is damaged: ${damaged} of ${reader.lines} lines are not JSON records. It stays pending; repair or remove the damaged lines.`
  return null
}

/**
 * `<session>/subagents/agent-*.jsonl`, sorted: [path, name relative to the session folder, kind].
 * Somnus's own sleep (the somnus-rem-sleep sub-agent) is not work of the session: left out.
 */
async function sessionFiles(
  transcriptPath: string,
  sessionId: string,
): Promise<Array<[string, string, DigestFileKind]>> {
  const folder = join(dirname(transcriptPath), sessionId, 'subagents')
  let names: string[]
  try {
    names = await fsPromises().readdir(folder)
  } catch {
    return []
  }
  const sleep = new Set((await listSubagentTranscripts(transcriptPath)).sleep)
  return names
    .filter((name) => /^agent-.+\.jsonl$/.test(name) && !sleep.has(join(folder, name)))
    .sort()
    .map((name) => [
      join(folder, name),
      `subagents/${name}`,
      name.startsWith('agent-acompact-') ? 'compaction' : 'subagent',
    ])
}

const fsPromises = () => process.getBuiltinModule('node:fs/promises')

/** The size of the file at `path`; null when it does not exist. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await fsPromises().stat(path)).size
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    throw error
  }
}

/** True when `path` exists; a file that cannot be looked at is unreadable, not missing. */
async function exists(path: string): Promise<boolean> {
  try {
    await fsPromises().stat(path)
    return true
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}
