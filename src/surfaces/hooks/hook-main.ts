/**
 * The hook bundle's entry (`dist/hook-bundle.cjs`, built by scripts/bundle-hook.mjs and run by
 * hook-loader.ts): `somnus hook <event>` lands here without loading the CLI. Always exits 0: a
 * hook must never block the agent.
 * Stdin and stdout are used through their file descriptors: `process.stdin` and `process.stdout`
 * build stream objects (net, tty, streams) that cost ~4 ms each at start-up, measured on Node 20.
 */
import { fstatSync, read, writeSync } from 'node:fs'
import { HOOK_EVENT_HELP } from './hook-input.ts'
import { runHook } from './run-hook.ts'

/** Stdin is given up after this long: Claude Code closes it at once, a terminal never does. */
const STDIN_TIMEOUT_MS = 3000
/** Wait between reads of a non-blocking stdin that has nothing yet. */
const STDIN_RETRY_MS = 5
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
    '',
  ].join('\n')
}

/**
 * All of stdin, or what arrived within the timeout; nothing from a terminal. Read on the thread
 * pool: a read cannot be called off, so an unfinished payload on a pipe that never closes keeps
 * the process alive, after it has answered, until the pipe closes.
 */
function readStdin(): Promise<string> {
  if (isTerminalOrClosed()) return Promise.resolve('')
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    const timer = setTimeout(finish, STDIN_TIMEOUT_MS)
    const next = () =>
      read(0, Buffer.allocUnsafe(CHUNK_BYTES), 0, CHUNK_BYTES, null, (error, bytes, buffer) => {
        if (settled) return
        if (error && error.code === 'EAGAIN') {
          setTimeout(next, STDIN_RETRY_MS)
          return
        }
        if (error || bytes === 0) return finish()
        chunks.push(buffer.subarray(0, bytes))
        // Claude Code writes one JSON object and closes stdin. Once the object is whole, no
        // further read is started: a read waiting on an open pipe would keep the process alive.
        if (isWholeObject(chunks)) return finish()
        next()
      })
    next()
  })
}

const CLOSING_BRACE = 0x7d
/** Space, tab, line feed, carriage return: JSON's white space. */
const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d])

/** True when the bytes so far are one complete JSON object (the payload of every hook event). */
function isWholeObject(chunks: Buffer[]): boolean {
  // Cheap test first: an object ends with `}`, perhaps followed by white space.
  const last = chunks[chunks.length - 1] ?? Buffer.alloc(0)
  let end = last.length - 1
  while (end >= 0 && WHITE_SPACE.has(last[end] as number)) end -= 1
  if (last[end] !== CLOSING_BRACE) return false
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

/** A terminal (a character device) sends nothing until someone types; a closed stdin nothing. */
function isTerminalOrClosed(): boolean {
  try {
    return fstatSync(0).isCharacterDevice()
  } catch {
    return true
  }
}

/** Writes all of `text` to stdout, synchronously, so nothing is lost when the process exits. */
function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8')
  let offset = 0
  try {
    while (offset < bytes.length) offset += writeSync(1, bytes, offset)
  } catch (error) {
    // A non-blocking stdout that is full: hand the rest to the stream, which waits for room.
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
    process.stdout.write(bytes.subarray(offset))
  }
}

async function main(): Promise<void> {
  // `node bin/somnus.js hook stop` → argv[3]; `node dist/hook.cjs stop` → argv[2].
  const event = (process.argv[2] === 'hook' ? process.argv[3] : process.argv[2]) ?? ''
  if (event === '' || event === '--help' || event === '-h' || event === 'help') {
    writeStdout(hookUsage())
    return
  }
  // Claude Code's timeout runs from the spawn, so the hook's budget does too.
  const startedAt = Date.now() - process.uptime() * 1000
  const result = await runHook(event, await readStdin(), {
    cwd: process.cwd(),
    env: process.env,
    startedAt,
  })
  if (result.stdout !== '') writeStdout(result.stdout)
}

// No top-level await: the bundle is CommonJS, run by hook-loader.ts with a code cache.
void main()
  .catch(() => {
    // runHook already logs; this only guards stdin and stdout failures.
  })
  .finally(() => {
    process.exitCode = 0
  })
