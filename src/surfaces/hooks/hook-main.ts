/**
 * The hook bundle's entry (`dist/hook-bundle.cjs`, built by scripts/bundle-hook.mjs and run by
 * hook-loader.ts): `somnus hook <event>` lands here without loading the CLI. Always exits 0, as
 * soon as it has answered: a hook must never block the agent, and a read left waiting on a stdin
 * that never closes would otherwise keep the process alive.
 * Stdin and stdout are used through their file descriptors: `process.stdin` and `process.stdout`
 * build stream objects (net, tty, streams) that cost ~4 ms each at start-up, measured on Node 20.
 */
import { fstatSync, read, readSync, writeSync } from 'node:fs'
import { somnusCliCommand } from '../../brain/create-somnus-hooks.ts'
import { HOOK_EVENT_HELP, HOOK_INPUT_MAX_BYTES } from './hook-input.ts'
import { runHook } from './run-hook.ts'

/** Stdin is given up after this long: Claude Code closes it at once, a terminal never does. */
const STDIN_TIMEOUT_MS = 3000
/** Pause between reads of a non-blocking stdin that has nothing yet. */
const STDIN_POLL_MS = 0.2
const CHUNK_BYTES = 64 * 1024

/** The usage text for `somnus hook --help`. */
export function hookUsage(): string {
  const width = Math.max(...Object.keys(HOOK_EVENT_HELP).map((name) => name.length))
  const lines = Object.entries(HOOK_EVENT_HELP).map(
    ([name, help]) => `  ${name.padEnd(width)}  ${help}`,
  )
  return [
    'Usage: somnus hook <event>   (reads the Claude Code hook JSON on stdin)',
    '',
    'Events:',
    ...lines,
    '',
    'Always exits 0; problems go to _agent_context/state/.somnus-hook.log (or ~/.somnus/hook.log).',
    'SOMNUS_SKIP_HOOKS=1 makes every hook exit 0 at once, doing nothing (set by --model claude-cli',
    'for the claude -p it starts).',
    '',
  ].join('\n')
}

/** What was read from stdin, and whether the timeout or the size cap cut it short. */
interface StdinText {
  text: string
  timedOut: boolean
  /** Over HOOK_INPUT_MAX_BYTES: nothing is kept. */
  tooLarge?: boolean
}

/** All of stdin, or what arrived within the timeout; nothing from a terminal. */
function readStdin(): Promise<StdinText> {
  const kind = stdinKind()
  if (kind === 'none') return Promise.resolve({ text: '', timedOut: false })
  if (kind === 'file' || makeNonBlocking(0)) return Promise.resolve(readWithoutWaiting())
  return readOnThreadPool()
}

/**
 * Reads a file or a non-blocking pipe in a loop. A pipe that has nothing yet (Claude Code writes
 * the payload just after the spawn) is tried again after a pause of STDIN_POLL_MS: polling on a
 * timer instead cost a whole timer tick, up to 5 ms, on every hook that started first.
 */
function readWithoutWaiting(): StdinText {
  const chunks: Buffer[] = []
  const isWhole = objectEndScanner()
  let total = 0
  const deadline = Date.now() + STDIN_TIMEOUT_MS
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES)
    let bytes: number
    try {
      bytes = readSync(0, buffer, 0, CHUNK_BYTES, null)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') break
      if (Date.now() >= deadline) return { text: textOf(chunks), timedOut: true }
      Atomics.wait(pause, 0, 0, STDIN_POLL_MS)
      continue
    }
    if (bytes === 0) break
    total += bytes
    if (total > HOOK_INPUT_MAX_BYTES) return { text: '', timedOut: false, tooLarge: true }
    chunks.push(buffer.subarray(0, bytes))
    // Claude Code writes one JSON object and closes stdin: once the object is whole, stop.
    if (isWhole(buffer.subarray(0, bytes))) break
  }
  return { text: textOf(chunks), timedOut: false }
}

/** Reads a pipe that could not be made non-blocking, on the thread pool, up to the timeout. */
function readOnThreadPool(): Promise<StdinText> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const isWhole = objectEndScanner()
    let total = 0
    let settled = false
    const finish = (timedOut: boolean, tooLarge = false) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(tooLarge ? { text: '', timedOut, tooLarge } : { text: textOf(chunks), timedOut })
    }
    const timer = setTimeout(() => finish(true), STDIN_TIMEOUT_MS)
    const next = () =>
      read(0, Buffer.allocUnsafe(CHUNK_BYTES), 0, CHUNK_BYTES, null, (error, bytes, buffer) => {
        if (settled) return
        if (error || bytes === 0) return finish(false)
        total += bytes
        if (total > HOOK_INPUT_MAX_BYTES) return finish(false, true)
        chunks.push(buffer.subarray(0, bytes))
        // A read left waiting on an open pipe would keep the process alive: stop once whole.
        if (isWhole(buffer.subarray(0, bytes))) return finish(false)
        next()
      })
    next()
  })
}

function textOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8')
}

const OPENING_BRACE = 0x7b
/** Space, tab, line feed, carriage return: JSON's white space. */
const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d])
const CLOSING_BRACE = 0x7d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * A scanner fed the bytes of stdin chunk by chunk, true once they hold one complete JSON object
 * (the payload of every hook event): the braces outside strings balance again. Each byte is
 * looked at once, so the cost is linear in the input; parsing the whole text again at each `}`
 * was quadratic (8 MB of `}` took 8 s). The text is parsed later, once; this only says when to
 * stop reading.
 */
function objectEndScanner(): (chunk: Buffer) => boolean {
  let depth = 0
  let started = false
  let inString = false
  let escaped = false
  let done = false
  /** Not an object (an array, a number...): read to the end and let the parse word it. */
  let other = false
  return (chunk) => {
    if (done) return true
    if (other) return false
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number
      if (!started && byte !== OPENING_BRACE) {
        if (WHITE_SPACE.has(byte)) continue
        other = true
        return false
      }
      if (inString) {
        if (escaped) escaped = false
        else if (byte === BACKSLASH) escaped = true
        else if (byte === QUOTE) inString = false
      } else if (byte === QUOTE) {
        inString = true
      } else if (byte === OPENING_BRACE) {
        depth += 1
        started = true
      } else if (byte === CLOSING_BRACE && started) {
        depth -= 1
        if (depth === 0) {
          done = true
          return true
        }
      }
    }
    return false
  }
}

/**
 * `none`: a terminal (a character device) sends nothing until someone types, a closed stdin
 * nothing. `stream`: a pipe or socket, which may stay open without sending. `file`: the rest.
 */
function stdinKind(): 'none' | 'stream' | 'file' {
  try {
    const stats = fstatSync(0)
    if (stats.isCharacterDevice()) return 'none'
    return stats.isFIFO() || stats.isSocket() ? 'stream' : 'file'
  } catch {
    return 'none'
  }
}

/** The part of Node's `pipe_wrap` binding used here. */
interface PipeBinding {
  Pipe: new (type: number) => { open(fd: number): number }
  constants: { SOCKET: number }
}

/**
 * Puts a pipe or socket stdin in non-blocking mode (true when it did), so no read waits on the
 * thread pool: a read cannot be called off there, and Node's exit waits for the thread, so a
 * stdin that never closed kept the hook alive after its answer. Opening the Pipe handle is what `process.stdin` does
 * (uv_pipe_open sets O_NONBLOCK; Node restores the flag at exit), without loading `net` (~3 ms
 * against ~0.1 ms, measured on Node 20). Without the binding (a future Node), reads wait on the thread pool.
 */
function makeNonBlocking(fd: number): boolean {
  try {
    const node = process as unknown as { binding(name: string): PipeBinding }
    const { Pipe, constants } = node.binding('pipe_wrap')
    return new Pipe(constants.SOCKET).open(fd) === 0
  } catch {
    // Blocking reads on the thread pool still work; only a stdin that never closes then delays
    // the exit.
    return false
  }
}

/**
 * Writes all of `text` to stdout, synchronously when it can; settles once every byte is out, so
 * nothing is lost when the process exits.
 */
async function writeStdout(text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8')
  let offset = 0
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset)
  } catch (error) {
    // A non-blocking stdout that is full: hand the rest to the stream, which waits for room.
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(bytes.subarray(offset), (failed) =>
        failed ? reject(failed) : resolve(),
      ),
    )
  }
}

/**
 * How Claude runs this install: the node that runs this hook and the `bin/somnus.js` beside the
 * `dist/` folder this bundle lies in (the loader passes that folder as `__dirname`). Unknown when
 * the source runs unbundled (tests), which then name plain `somnus`.
 */
function thisInstallCommand(): string | undefined {
  if (typeof __dirname !== 'string' || !/[\\/]dist$/.test(__dirname)) return undefined
  return somnusCliCommand(process.execPath, __dirname.replace(/[\\/]dist$/, ''))
}

/** This install's `plugin/` folder, beside `dist/`; undefined when not run from `dist/`. */
function thisPluginDir(): string | undefined {
  if (typeof __dirname !== 'string' || !/[\\/]dist$/.test(__dirname)) return undefined
  return `${__dirname.replace(/[\\/]dist$/, '')}/plugin`
}

async function main(): Promise<void> {
  // `node bin/somnus.js hook stop` → argv[3]; `node dist/hook.cjs stop` → argv[2].
  const event = (process.argv[2] === 'hook' ? process.argv[3] : process.argv[2]) ?? ''
  if (event === '' || event === '--help' || event === '-h' || event === 'help') {
    await writeStdout(hookUsage())
    return
  }
  // Claude Code's timeout runs from the spawn, so the hook's budget does too.
  const startedAt = Date.now() - process.uptime() * 1000
  const stdin = await readStdin()
  const result = await runHook(event, stdin.text, {
    cwd: process.cwd(),
    env: process.env,
    startedAt,
    somnusCommand: thisInstallCommand(),
    ...(thisPluginDir() === undefined ? {} : { pluginDir: thisPluginDir() }),
    ...(stdin.tooLarge
      ? {
          stdinNote: `stdin over ${HOOK_INPUT_MAX_BYTES} bytes: refused, nothing read or recorded (Claude Code sends a few KB)`,
        }
      : stdin.timedOut
        ? {
            stdinNote: `stdin still open after ${STDIN_TIMEOUT_MS} ms: went on with the ${Buffer.byteLength(stdin.text)} bytes that had come`,
          }
        : {}),
  })
  if (result.stdout !== '') await writeStdout(result.stdout)
}

// No top-level await: the bundle is CommonJS, run by hook-loader.ts with a code cache.
void main()
  .catch(() => {
    // runHook already logs; this only guards stdin and stdout failures.
  })
  .finally(() => {
    // The answer is out and logged; a read still waiting on an open stdin must not keep the
    // process alive (the loader's exit handler still saves its code cache).
    process.exit(0)
  })
