/**
 * Claude Code transcripts on disk: finding them, and reading them through the pure analyzer with
 * one fixed buffer, so memory stays flat whatever the file size (a 1 GB transcript costs the
 * buffer plus its longest line).
 */
import { basename, dirname, join } from 'node:path'
import { SomnusError } from '../../core/errors.ts'
import { mergeAnalyses } from '../../core/transcript/merge-analyses.ts'
import type { TranscriptAnalysis } from '../../core/transcript/transcript-analysis.ts'
import { createTranscriptAnalyzer } from '../../core/transcript/transcript-analyzer.ts'
import { SLEEP_AGENT_TYPES } from '../../core/transcript/transcript-rules.ts'
import type { AnalyzeSession } from '../../ports/session-transcripts.ts'

/**
 * `node:fs`, for the reads themselves (see readChunks) and the few stats and folder listings
 * around them: synchronous calls, so node:fs/promises (readline, the watchers: ~1-4 ms of a
 * start) is never loaded for a transcript.
 */
const fs = () => process.getBuiltinModule('node:fs')

/** Bytes read per system call; one buffer of this size is allocated per file. */
export const READ_CHUNK_BYTES = 1024 * 1024

/** Chunks read between two turns of the event loop, so a long analysis leaves other work room. */
const CHUNKS_BETWEEN_TURNS = 16

/** How to read one transcript file. */
export interface AnalyzeFileOptions {
  /** ISO time: records at or before it are not counted. */
  since?: string
  /**
   * Files larger than this are not read (seed 000's safety cap, docs/design/origins.md); `onSkip`
   * says so.
   */
  maxBytes?: number
  /** Called with the reason when the file is not read because of `maxBytes`. */
  onSkip?: (reason: string) => void
}

/**
 * Counts one transcript file. Null when it does not exist, or when it is over `maxBytes` (then
 * `onSkip` gets the reason). Throws TRANSCRIPT_UNREADABLE when it exists but cannot be read.
 */
export async function analyzeTranscriptFile(
  path: string,
  options: AnalyzeFileOptions = {},
): Promise<TranscriptAnalysis | null> {
  const size = await fileSize(path)
  if (size === null) return null
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    options.onSkip?.(`${path} is ${megabytes(size)}, over the ${megabytes(options.maxBytes)} limit`)
    return null
  }
  const analyzer = createTranscriptAnalyzer(
    options.since === undefined ? {} : { since: options.since },
  )
  const descriptor = openTranscript(path)
  if (descriptor === null) return null
  let chunks = 0
  for (const chunk of readChunks(descriptor, path)) {
    analyzer.push(chunk)
    if (++chunks % CHUNKS_BETWEEN_TURNS === 0) await nextTurn()
  }
  return analyzer.finish()
}

/**
 * The sub-agent transcripts of a session: `<dir>/<session>/subagents/agent-*.jsonl`, sorted.
 * Compaction runs (`agent-acompact-*`) are left out: they are Claude Code summarising the
 * conversation for itself, not work done for the user, and they re-read the session's own text.
 * Somnus's own sleep (see listSubagentTranscripts) is left out too.
 */
export async function subagentTranscriptPaths(transcriptPath: string): Promise<string[]> {
  return (await listSubagentTranscripts(transcriptPath)).work
}

/** A session's sub-agent transcripts: the work done for the user, and Somnus's own sleep runs. */
export interface SubagentTranscripts {
  work: string[]
  sleep: string[]
}

/**
 * The session's sub-agent transcripts (compaction runs left out, see subagentTranscriptPaths),
 * split by what Claude Code says ran in each: `agent-<id>.meta.json` beside the file names its
 * `agentType` (Claude Code 2.1.x); a Somnus sleep agent (SLEEP_AGENT_TYPES) goes to `sleep`.
 */
export async function listSubagentTranscripts(
  transcriptPath: string,
): Promise<SubagentTranscripts> {
  const folder = join(dirname(transcriptPath), basename(transcriptPath, '.jsonl'), 'subagents')
  let names: string[]
  try {
    names = fs().readdirSync(folder)
  } catch {
    return { work: [], sleep: [] }
  }
  const listed: SubagentTranscripts = { work: [], sleep: [] }
  for (const name of names.sort()) {
    if (!/^agent-.+\.jsonl$/.test(name) || name.startsWith('agent-acompact-')) continue
    const metadata = join(folder, `${name.slice(0, -'.jsonl'.length)}.meta.json`)
    const type = await agentTypeIn(metadata)
    const isSleep = type !== null && SLEEP_AGENT_TYPES.has(type)
    ;(isSleep ? listed.sleep : listed.work).push(join(folder, name))
  }
  return listed
}

/** The `agentType` a sub-agent's `.meta.json` names; null when it is absent or unreadable. */
async function agentTypeIn(path: string): Promise<string | null> {
  let text: string
  try {
    text = fs().readFileSync(path, 'utf8')
  } catch {
    return null
  }
  try {
    // Claude Code's record of one sub-agent run; only the type is read. Checked by hand: this
    // runs in the Stop hook for every sub-agent, where loading zod would cost milliseconds.
    const metadata: unknown = JSON.parse(text)
    const type =
      typeof metadata === 'object' && metadata !== null
        ? (metadata as { agentType?: unknown }).agentType
        : undefined
    return typeof type === 'string' ? type : null
  } catch {
    return null // a file being written, or not JSON: the run counts as work
  }
}

/**
 * The session's counts: its main transcript plus its sub-agent files (see
 * engine/ports/session-transcripts.ts). Somnus's own sleep is not counted: neither the call that
 * dispatched it (the analyzer leaves it out) nor its sub-agent file.
 */
export const analyzeSession: AnalyzeSession = async (transcriptPath, options) => {
  let skipped: string | null = null
  const main = await analyzeTranscriptFile(transcriptPath, {
    ...options,
    onSkip: (reason) => {
      skipped = reason
    },
  })
  if (skipped !== null) return { skipped }
  if (main === null) return { missing: true }
  const files = [transcriptPath]
  const parts: TranscriptAnalysis[] = []
  const subagents = await listSubagentTranscripts(transcriptPath)
  for (const path of subagents.work) {
    const part = await analyzeTranscriptFile(path, options)
    if (part === null) continue // vanished, or over the cap on its own: the session still counts
    parts.push(part)
    files.push(path)
  }
  const analysis = mergeAnalyses(main, parts)
  analysis.sleep_subagent_files = subagents.sleep.length
  return { analysis, files }
}

/** Where to look for a session's transcript. */
export interface LocateOptions {
  /** A path the caller already has (hook input, ledger); used when it exists. */
  transcriptPath?: string
  /** Claude Code's projects folder; default `<home>/.claude/projects`. */
  projectsDir?: string
  /** The project folder the session ran in, to compute its projects sub-folder. */
  cwd?: string
  home: string
}

/**
 * The transcript of `sessionId`, or null: the given path if it exists, else
 * `<projects>/<cwd with every non-alphanumeric replaced by ->/<id>.jsonl`, else the first project
 * folder that holds `<id>.jsonl` (long or unusual paths are named differently by Claude Code).
 */
export async function locateTranscript(
  sessionId: string,
  options: LocateOptions,
): Promise<string | null> {
  if (options.transcriptPath !== undefined && (await fileSize(options.transcriptPath)) !== null) {
    return options.transcriptPath
  }
  const projects = options.projectsDir ?? join(options.home, '.claude', 'projects')
  const fileName = `${sessionId}.jsonl`
  const folder = options.cwd === undefined ? null : projectFolderName(options.cwd)
  if (folder !== null) {
    const candidate = join(projects, folder, fileName)
    if ((await fileSize(candidate)) !== null) return candidate
  }
  let folders: string[]
  try {
    folders = fs().readdirSync(projects)
  } catch {
    return null
  }
  for (const name of folders.sort()) {
    const candidate = join(projects, name, fileName)
    if ((await fileSize(candidate)) !== null) return candidate
  }
  return null
}

/**
 * Claude Code's folder name for a project path: every character outside [A-Za-z0-9] becomes `-`.
 * Null over 200 characters, where Claude Code shortens and hashes (differently per runtime).
 */
export function projectFolderName(cwd: string): string | null {
  const name = cwd.replace(/[^A-Za-z0-9]/g, '-')
  return name.length > 200 ? null : name
}

/**
 * The lines of a transcript file, decoded, in order, read with the same fixed buffer; null when
 * the file does not exist. The file opens on the first line asked for and closes after the last.
 */
export async function openTranscriptLines(path: string): Promise<AsyncGenerator<string> | null> {
  return (await fileSize(path)) === null ? null : linesOf(path)
}

async function* linesOf(path: string): AsyncGenerator<string> {
  const descriptor = openTranscript(path)
  if (descriptor === null) return // removed since it was found: no lines
  let carry: Buffer[] = []
  for (const chunk of readChunks(descriptor, path)) {
    let start = 0
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline)
      yield carry.length === 0
        ? piece.toString('utf8')
        : Buffer.concat([...carry, piece]).toString('utf8')
      carry = []
      start = newline + 1
    }
    if (start < chunk.length) carry.push(Buffer.from(chunk.subarray(start)))
  }
  if (carry.length > 0) yield Buffer.concat(carry).toString('utf8')
}

/** Everything the transcript use cases need from the disk, in one object for the composition root. */
export const transcriptFiles = {
  analyzeSession,
  analyzeTranscriptFile,
  locateTranscript,
  openTranscriptLines,
}

/**
 * The file's bytes in pieces that end at a newline, read with one fixed buffer (see readChunks);
 * nothing when it does not exist. Each piece is valid until the next is asked for.
 */
export function* transcriptChunks(path: string): Generator<Buffer> {
  const descriptor = openTranscript(path)
  if (descriptor === null) return
  yield* readChunks(descriptor, path)
}

/** The open file's descriptor, or null when it does not exist. */
function openTranscript(path: string): number | null {
  const { constants } = fs()
  let descriptor: number
  try {
    // O_NONBLOCK: a FIFO named as a transcript opens at once instead of waiting for a writer.
    descriptor = fs().openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null
    throw unreadable(path, error)
  }
  // Checked on the descriptor itself, so a file swapped for a device after a stat is still caught:
  // /dev/zero never ends (a SessionEnd naming it once burned a core for 38 minutes).
  if (!fs().fstatSync(descriptor).isFile()) {
    fs().closeSync(descriptor)
    throw unreadable(path, new Error('not a regular file (a FIFO, a device or a folder)'))
  }
  return descriptor
}

/**
 * Reads the file into one buffer, yielding pieces that end at a newline (except a line longer
 * than the buffer, and the end of the file); the start of a line cut by the buffer's end moves to
 * its front for the next read. The reads are synchronous: from the page cache a read is a memory
 * copy, cheaper than handing it to the thread pool and waiting for the event loop to hear back
 * (measured on a 200 MB transcript, ~8% of the whole analysis). Each piece is valid until the next
 * one is asked for. Closes the file when done, or when the caller stops early.
 */
function* readChunks(descriptor: number, path: string): Generator<Buffer> {
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES)
    let filled = 0
    for (;;) {
      const bytesRead = readInto(descriptor, buffer, filled, path)
      if (bytesRead === 0) break
      filled += bytesRead
      // Where this piece ends: after its last newline, or the whole buffer when a line fills it.
      const lastNewline = buffer.lastIndexOf(10, filled - 1)
      const complete = lastNewline === -1 && filled === buffer.length ? filled : lastNewline + 1
      if (complete > 0) yield buffer.subarray(0, complete)
      buffer.copy(buffer, 0, complete, filled)
      filled -= complete
    }
    if (filled > 0) yield buffer.subarray(0, filled)
  } finally {
    fs().closeSync(descriptor)
  }
}

function readInto(descriptor: number, buffer: Buffer, offset: number, path: string): number {
  try {
    return fs().readSync(descriptor, buffer, offset, buffer.length - offset, null)
  } catch (error) {
    throw unreadable(path, error)
  }
}

/** A turn of the event loop (timers, I/O callbacks) before the caller goes on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

async function fileSize(path: string): Promise<number | null> {
  try {
    const info = fs().statSync(path)
    if (!info.isFile()) throw unreadable(path, new Error('not a file'))
    return info.size
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return null
    throw unreadable(path, error)
  }
}

function unreadable(path: string, error: unknown): SomnusError {
  if (error instanceof SomnusError) return error
  const reason = error instanceof Error ? error.message : String(error)
  return new SomnusError(
    'TRANSCRIPT_UNREADABLE',
    `Cannot read the transcript ${path}: ${reason}. Check that it is a readable .jsonl file.`,
    { cause: error },
  )
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
