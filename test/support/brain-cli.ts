/** A temporary project for in-process CLI tests of the brain commands (tasks, knowledge, ...). */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runCliCaptured } from './run-cli-captured.ts'

/** One CLI run's exit code and output. */
export interface BrainCliRun {
  code: number
  stdout: string
  stderr: string
}

/** A project folder, its `_agent_context` root, and a runner bound to them. */
export interface BrainCliProject {
  project: string
  root: string
  /** Runs `somnus <args...>` from the project with SOMNUS_CONTEXT_DIR set; `stdin` is piped input. */
  run(args: string[], stdin?: string): Promise<BrainCliRun>
  read(path: string): string
  write(path: string, text: string): void
  dispose(): void
}

/** A new temporary project; with `brain: false` no `_agent_context` folder is made. */
export function createBrainCliProject(options: { brain?: boolean } = {}): BrainCliProject {
  const base = mkdtempSync(join(tmpdir(), 'somnus-brain-'))
  const project = join(base, 'project')
  const root = join(project, '_agent_context')
  mkdirSync(options.brain === false ? project : join(root, 'state'), { recursive: true })
  return {
    project,
    root,
    run: (args, stdin = '') =>
      runCliCaptured(args, {
        cwd: project,
        env: options.brain === false ? {} : { SOMNUS_CONTEXT_DIR: root },
        stdin,
      }),
    read: (path) => readFileSync(join(project, path), 'utf8'),
    write: (path, text) => {
      mkdirSync(dirname(join(project, path)), { recursive: true })
      writeFileSync(join(project, path), text)
    },
    dispose: () => rmSync(base, { recursive: true, force: true }),
  }
}
