/** The real Claude Code CLI (the native binary from npm), run as a test runs it. */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './shared-data.ts'

/** The binary `npm install` brings (`node_modules/.bin/claude` links to it). */
export const CLAUDE_BINARY = join(
  REPO_ROOT,
  'node_modules/@anthropic-ai/claude-code/bin/claude.exe',
)

/** True when the binary is installed; e2e tests skip without it. */
export const HAS_CLAUDE = existsSync(CLAUDE_BINARY)

/** How one run ended. */
export interface ClaudeRun {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `claude <args>` to the end (killed after `timeoutMs`), stdin closed. */
export function runClaude(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ClaudeRun> {
  const timeoutMs = options.timeoutMs ?? 180_000
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE_BINARY, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`claude did not finish within ${timeoutMs} ms; stderr: ${stderr}`))
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}
