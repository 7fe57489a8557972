/**
 * The hook bundle's entry (`dist/hook.js`, built by scripts/bundle-hook.mjs): `somnus hook <event>`
 * lands here without loading the CLI. Always exits 0: a hook must never block the agent.
 */
import { HOOK_EVENT_HELP } from './hook-input.ts'
import { runHook } from './run-hook.ts'

/** Stdin is given up after this long: Claude Code closes it at once, a terminal never does. */
const STDIN_TIMEOUT_MS = 3000

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

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return ''
  const chunks: Buffer[] = []
  const done = new Promise<void>((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk))
    process.stdin.on('end', resolve)
    process.stdin.on('error', () => resolve())
  })
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, STDIN_TIMEOUT_MS)
  })
  await Promise.race([done, timeout])
  clearTimeout(timer)
  process.stdin.pause()
  process.stdin.unref?.()
  return Buffer.concat(chunks).toString('utf8')
}

async function main(): Promise<void> {
  // `node bin/somnus.js hook stop` → argv[3]; `node dist/hook.js stop` → argv[2].
  const event = (process.argv[2] === 'hook' ? process.argv[3] : process.argv[2]) ?? ''
  if (event === '' || event === '--help' || event === '-h' || event === 'help') {
    process.stdout.write(hookUsage())
    return
  }
  const result = await runHook(event, await readStdin(), { cwd: process.cwd(), env: process.env })
  if (result.stdout !== '') process.stdout.write(result.stdout)
}

try {
  await main()
} catch {
  // runHook already logs; this only guards stdin and stdout failures.
}
process.exitCode = 0
