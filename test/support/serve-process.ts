/** `somnus serve` as its own process (the built CLI), for tests and benchmarks. */
import { type ChildProcess, spawn } from 'node:child_process'
import { SOMNUS_BIN } from './build-once.ts'

/** A running `somnus serve`. */
export interface ServeProcess {
  child: ChildProcess
  /** `http://127.0.0.1:<port>`, read from its start-up line. */
  url: string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
  /** Everything it printed so far (stdout and stderr apart). */
  output(): { stdout: string; stderr: string }
}

/** Starts `somnus serve <args>` and resolves once it listens (rejects if it exits first). */
export async function startServe(
  args: string[],
  options: { cwd?: string; env: Record<string, string> },
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SOMNUS_BIN, 'serve', ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout)
      if (match?.[1]) {
        clearInterval(timer)
        resolve(match[1])
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`serve exited ${code}: ${stdout}${stderr}`))
    })
  })
  return { child, url, exited, output: () => ({ stdout, stderr }) }
}
