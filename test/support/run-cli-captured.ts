/** Runs the CLI in-process and captures what it printed, for command tests. */
import { runCli } from '../../src/surfaces/cli/run-cli.ts'

/** What one CLI run returned and printed. */
export interface CapturedRun {
  code: number
  stdout: string
  stderr: string
}

/** `somnus <args>` in `cwd` with `env`, standard input `stdin`; nothing reaches the real streams. */
export async function runCliCaptured(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; stdin?: string },
): Promise<CapturedRun> {
  let stdout = ''
  let stderr = ''
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    readStdin: async () => options.stdin ?? '',
    cwd: options.cwd,
    env: options.env ?? {},
  })
  return { code, stdout, stderr }
}
