/**
 * A temporary project for in-process CLI tests of the ledger commands (`sleep`, `bookmark`,
 * `trigger`): an `_agent_context/state/` folder, captured output, and direct access to the files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCliCaptured } from './run-cli-captured.ts'

/** One CLI run's exit code and output. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** A temporary project with an empty brain. */
export interface LedgerCliProject {
  /** `<project>/_agent_context`. */
  root: string
  /** `<root>/state`. */
  stateDir: string
  /** Runs `somnus <args...>` in-process from the project folder. */
  run(...args: string[]): Promise<CliRun>
  /** The raw `.sleep.json` content, or null when there is none. */
  ledgerText(): string | null
  /** `.sleep.json` parsed, or null. */
  ledger(): Record<string, unknown> | null
  /** Replaces `.sleep.json`. */
  writeLedger(value: unknown): void
  /** `.sleep-history.json` parsed, or null. */
  history(): unknown[] | null
  /** Writes `<root>/somnus.json`. */
  writeConfig(value: unknown): void
  dispose(): void
}

/** Makes a project in a temporary folder; `dispose()` removes it. */
export function createLedgerCliProject(): LedgerCliProject {
  const dir = mkdtempSync(join(tmpdir(), 'somnus-cli-'))
  const project = join(dir, 'project')
  const root = join(project, '_agent_context')
  const stateDir = join(root, 'state')
  mkdirSync(stateDir, { recursive: true })
  const ledgerPath = join(stateDir, '.sleep.json')
  const historyPath = join(stateDir, '.sleep-history.json')
  const readJson = (path: string) =>
    existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null
  return {
    root,
    stateDir,
    run: (...args) => runCliCaptured(args, { cwd: project }),
    ledgerText: () => (existsSync(ledgerPath) ? readFileSync(ledgerPath, 'utf8') : null),
    ledger: () => readJson(ledgerPath),
    writeLedger: (value) => writeFileSync(ledgerPath, `${JSON.stringify(value, null, 2)}\n`),
    history: () => readJson(historyPath),
    writeConfig: (value) => writeFileSync(join(root, 'somnus.json'), JSON.stringify(value)),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}
