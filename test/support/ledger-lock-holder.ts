/**
 * A live holder of the ledger lock, as another hook or `sleep run` would be: a separate process
 * that makes the lock folder and keeps it fresh (so it is never taken over as stale) until told
 * to let go. Hook tests use it to make the lock busy for real.
 */
import { type ChildProcess, spawn } from 'node:child_process'

/** Keeps the lock folder fresh, as a live holder does, until its stdin closes. */
const HOLDER_SCRIPT = `
const fs = require('node:fs')
const lock = process.argv[1]
fs.mkdirSync(lock)
const touch = () => { const now = new Date(); fs.utimesSync(lock, now, now) }
const timer = setInterval(touch, 250)
process.stdout.write('held\\n')
process.stdin.resume()
process.stdin.on('end', () => { clearInterval(timer); fs.rmdirSync(lock); process.exit(0) })
`

/** Takes the lock folder `lockPath` in a child process; resolves once it is held. */
export function holdLock(lockPath: string): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ['-e', HOLDER_SCRIPT, lockPath], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    holder.on('error', reject)
    holder.stdout?.once('data', () => resolve(holder))
  })
}

/** Lets go of the lock (if the holder still runs) and waits for the holder to exit. */
export async function releaseLock(holder: ChildProcess | undefined): Promise<void> {
  if (holder === undefined || holder.exitCode !== null) return
  const gone = new Promise((resolve) => holder.once('exit', resolve))
  holder.stdin?.end()
  await gone
}
