/** The world as the CLI sees it: streams, folder and environment, injected for in-process tests. */
import { fstatSync, writeSync } from 'node:fs'

/** Runs `somnus <args...>` on `io` and answers the exit code (what run-cli.ts exports). */
export type RunCli = (args: string[], io: CliIo) => Promise<number>

/** Input and output of one CLI run. */
export interface CliIo {
  /** Writes text to standard output (no newline added). */
  stdout(text: string): void
  /** Writes text to standard error (no newline added). */
  stderr(text: string): void
  /** All of standard input as text ('' when it is a terminal). */
  readStdin(): Promise<string>
  readonly cwd: string
  readonly env: Record<string, string | undefined>
  /**
   * A signal that fires when the user interrupts (Ctrl-C, SIGTERM). Commands that can stop
   * cleanly (a model call, a long run) ask for it; from then on the first Ctrl-C aborts the work
   * and a second one ends the process at once. Absent in tests that need no interruption.
   */
  interruptSignal?(): AbortSignal
}

/** The real process's streams, folder and environment. */
export function processIo(): CliIo {
  const stdout = descriptorWriter(1, () => process.stdout)
  const stderr = descriptorWriter(2, () => process.stderr)
  return {
    stdout: (text) => stdout(text),
    stderr: (text) => stderr(text),
    readStdin: async () => {
      if (process.stdin.isTTY) return ''
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks).toString('utf8')
    },
    cwd: process.cwd(),
    env: process.env,
    interruptSignal: () => {
      interruption ??= listenForInterrupt()
      return interruption.signal
    },
  }
}

let interruption: AbortController | null = null

/**
 * A writer to file descriptor `fd` (1 or 2) that goes quiet once the reader has gone
 * (`somnus --help | head`): the broken pipe is not an error of the command, so the rest of its
 * output is dropped and the command ends as it would have (help exits 0), instead of crashing on
 * an unhandled EPIPE. It writes to the descriptor itself: `process.stdout` builds stream objects
 * (~6 ms of every command's start, measured on Node 20). A non-blocking descriptor that is full
 * hands the rest, and everything after, to the stream, which waits for room.
 */
function descriptorWriter(fd: number, stream: () => NodeJS.WriteStream): (text: string) => void {
  let closed = false
  let fallback: NodeJS.WriteStream | null = null
  const toStream = (text: string | Buffer) => {
    if (fallback === null) {
      fallback = stream()
      fallback.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true
        else throw error
      })
    }
    if (!closed) fallback.write(text)
  }
  return (text) => {
    if (closed) return
    if (fallback !== null) return toStream(text)
    const bytes = Buffer.from(text, 'utf8')
    let offset = 0
    try {
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EPIPE') closed = true
      else if (code === 'EAGAIN') toStream(bytes.subarray(offset))
      else throw error
    }
  }
}

/**
 * What commander asks of stdout (fd 1) and stderr (fd 2) to lay out help: its width and whether
 * it shows colours. Commander reads `process.stdout.isTTY` for both, which builds the stream (see
 * descriptorWriter); this looks at the descriptor first and builds it only for a terminal.
 * Colours follow commander's own rules (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, then the terminal).
 */
export function helpLayout(fd: 1 | 2): { width(): number; hasColors(): boolean } {
  const terminal = () => {
    try {
      if (!fstatSync(fd).isCharacterDevice()) return undefined
    } catch {
      return undefined
    }
    const stream = fd === 1 ? process.stdout : process.stderr
    return stream.isTTY ? stream : undefined
  }
  return {
    // 80 is commander's own width for output that is not a terminal.
    width: () => terminal()?.columns ?? 80,
    hasColors: () => colorsWanted() ?? terminal()?.hasColors?.() ?? false,
  }
}

/** Commander's reading of the colour conventions (no-color.org, bixense.com/clicolors). */
function colorsWanted(): boolean | undefined {
  const { NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE } = process.env
  if (NO_COLOR || FORCE_COLOR === '0' || FORCE_COLOR === 'false') return false
  if (FORCE_COLOR || CLICOLOR_FORCE !== undefined) return true
  return undefined
}

/** Aborts on the first SIGINT or SIGTERM; `once` hands a second signal back to Node's default. */
function listenForInterrupt(): AbortController {
  const controller = new AbortController()
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    process.once(name, () => {
      process.stderr.write(
        `somnus: ${name === 'SIGINT' ? 'interrupted' : 'terminated'}: stopping (again to quit at once)\n`,
      )
      controller.abort()
    })
  }
  return controller
}

/** Prints `value` as pretty JSON with a trailing newline (every `--json` flag uses this). */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`)
}
