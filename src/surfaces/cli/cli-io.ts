/** The world as the CLI sees it: streams, folder and environment, injected for in-process tests. */

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
  const stdout = quietWhenClosed(process.stdout)
  const stderr = quietWhenClosed(process.stderr)
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
 * A writer to `stream` that goes quiet once the reader has gone (`somnus --help | head`): the
 * broken pipe is not an error of the command, so the rest of its output is dropped and the
 * command ends as it would have (help exits 0), instead of crashing on an unhandled EPIPE.
 */
function quietWhenClosed(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed = true
    else throw error
  })
  return (text) => {
    if (!closed) stream.write(text)
  }
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
