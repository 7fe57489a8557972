/**
 * Claude Code transcripts on disk: finding them, and reading them through the pure analyzer with
 * two fixed buffers, so memory stays flat whatever the file size (a 1 GB transcript costs the
 * buffers plus its longest line).
 */
import type { FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { SomnusError } from '../../core/errors.ts'
import { mergeAnalyses } from '../../core/transcript/merge-analyses.ts'
import type { TranscriptAnalysis } from '../../core/transcript/transcript-analysis.ts'
import { createTranscriptAnalyzer } from '../../core/transcript/transcript-analyzer.ts'
import type { AnalyzeSession } from '../../ports/session-transcripts.ts'

/**
 * `node:fs/promises`, loaded when a transcript is first read: loading it pulls in readline and the
 * watchers, ~1 ms of every hook start, and most hooks read no transcript.
 */
const fsPromises = () => process.getBuiltinModule('node:fs/promises')

/** Bytes read per system call; two buffers of this size are allocated per file. */
export const READ_CHUNK_BYTES = 1024 * 1024

/** How to read one transcript file. */
export interface AnalyzeFileOptions {
  /** ISO time: records at or before it are not counted. */
  since?: string
  /** Files larger than this are not read (seed 000's safety cap); `onSkip` says so. */
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
  const handle = await openTranscript(path)
  if (handle === null) return null
  for await (const chunk of readChunks(handle, path)) analyzer.push(chunk)
  return analyzer.finish()
}

/**
 * The sub-agent transcripts of a session: `<dir>/<session>/subagents/agent-*.jsonl`, sorted.
 * Compaction runs (`agent-acompact-*`) are left out: they are Claude Code summarising the
 * conversation for itself, not work done for the user, and they re-read the session's own text.
 */
export async function subagentTranscriptPaths(transcriptPath: string): Promise<string[]> {
  const folder = join(dirname(transcriptPath), basename(transcriptPath, '.jsonl'), 'subagents')
  let names: string[]
  try {
    names = await fsPromises().readdir(folder)
  } catch {
    return []
  }
  return names
    .filter((name) => /^agent-.+\.jsonl$/.test(name) && !name.startsWith('agent-acompact-'))
    .sort()
    .map((name) => join(folder, name))
}

/** The session's counts: its main transcript plus its sub-agent files (see ports/session-transcripts.ts). */
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
  for (const path of await subagentTranscriptPaths(transcriptPath)) {
    const part = await analyzeTranscriptFile(path, options)
    if (part === null) continue // vanished, or over the cap on its own: the session still counts
    parts.push(part)
    files.push(path)
  }
  return { analysis: mergeAnalyses(main, parts), files }
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
    folders = await fsPromises().readdir(projects)
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
 * The lines of a transcript file, decoded, in order, read with the same fixed buffers; null when
 * the file does not exist.
 */
export async function openTranscriptLines(path: string): Promise<AsyncGenerator<string> | null> {
  const handle = await openTranscript(path)
  return handle === null ? null : linesOf(handle, path)
}

async function* linesOf(handle: FileHandle, path: string): AsyncGenerator<string> {
  let carry: Buffer[] = []
  for await (const chunk of readChunks(handle, path)) {
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

/** The open file, or null when it does not exist. */
async function openTranscript(path: string): Promise<FileHandle | null> {
  try {
    return await fsPromises().open(path, 'r')
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null
    throw unreadable(path, error)
  }
}

/**
 * Reads the file into two alternating buffers, yielding pieces that end at a newline (except a
 * line longer than a buffer, and the end of the file). The next read is already under way while
 * the caller works on a piece, so disk and CPU overlap. Each piece is valid until the next one is
 * asked for. Closes the file when done.
 */
async function* readChunks(handle: FileHandle, path: string): AsyncGenerator<Buffer> {
  let pending: Promise<unknown> | null = null
  try {
    let current = Buffer.allocUnsafe(READ_CHUNK_BYTES)
    let spare = Buffer.allocUnsafe(READ_CHUNK_BYTES)
    let filled = (await readInto(handle, current, 0, path)).bytesRead
    while (filled > 0) {
      // Where this piece ends: after its last newline, or the whole buffer when a line fills it.
      const lastNewline = current.lastIndexOf(10, filled - 1)
      const complete = lastNewline === -1 && filled === current.length ? filled : lastNewline + 1
      const tail = filled - complete
      current.copy(spare, 0, complete, filled)
      const next = readInto(handle, spare, tail, path)
      pending = next.catch(() => undefined) // a failure surfaces at the await below, not as unhandled
      if (complete > 0) yield current.subarray(0, complete)
      const { bytesRead } = await next
      pending = null
      if (bytesRead === 0) {
        if (tail > 0) yield spare.subarray(0, tail)
        break
      }
      ;[current, spare] = [spare, current]
      filled = tail + bytesRead
    }
  } finally {
    await pending // the caller stopped early: let the read in flight finish before closing
    await handle.close()
  }
}

async function readInto(handle: FileHandle, buffer: Buffer, offset: number, path: string) {
  try {
    return await handle.read(buffer, offset, buffer.length - offset, null)
  } catch (error) {
    throw unreadable(path, error)
  }
}

async function fileSize(path: string): Promise<number | null> {
  try {
    const info = await fsPromises().stat(path)
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
