/**
 * The consolidation service for one CLI command: `--db` (or SOMNUS_DATABASE_URL, or the default
 * PGlite folder), `--config` (a JSON file of service settings) and `--model`, opened the same way
 * by `worker`, `consolidate` and `handoffs`. Says on stderr which database it opened.
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { createSomnusService, type SomnusService } from '../../brain/create-somnus.ts'
import { SomnusError } from '../../engine/core/errors.ts'
import type { CliIo } from './cli-io.ts'

/** The options every service command takes. */
export interface ServiceCliOptions {
  db?: string
  config?: string
  model?: string
}

/** Adds `--db`, `--config` and `--model` to a command. */
export function withServiceOptions(command: Command): Command {
  return command
    .option(
      '--db <url-or-folder>',
      'postgres://… for PostgreSQL, or a PGlite data folder (default: SOMNUS_DATABASE_URL, else ~/.local/share/somnus/service-db)',
    )
    .option(
      '--config <file>',
      'JSON file of service settings (thresholds, budgets, schedule, compression_threads)',
    )
    .option(
      '--model <spec>',
      'extractive (default, offline), anthropic:<model>, openai:<model> or claude-cli',
    )
}

/** Opens the service the options name and says where its data is. */
export async function openService(io: CliIo, options: ServiceCliOptions): Promise<SomnusService> {
  const config = options.config ? await readConfig(io, options.config) : {}
  const database = options.db === undefined ? undefined : resolveDb(io, options.db)
  const service = await createSomnusService({
    database,
    config,
    model: options.model,
    env: io.env,
  })
  io.stderr(`somnus: database: ${service.description}\n`)
  return service
}

/** A relative PGlite folder is taken from the working folder; URLs pass through. */
function resolveDb(io: CliIo, value: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value === ':memory:') return value
  return resolve(io.cwd, value)
}

async function readConfig(io: CliIo, file: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8')
  } catch (error) {
    throw new SomnusError(
      'NOT_FOUND',
      `Cannot read the settings file ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): check the path.`,
      { cause: error },
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${file} is not valid JSON (${(error as Error).message}): fix it, or leave --config out for the defaults.`,
      { cause: error },
    )
  }
}

/** Aborts on the first SIGTERM or SIGINT; returns the signal and a function removing the handlers. */
export function stopOnSignals(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  return {
    signal: controller.signal,
    dispose: () => {
      process.removeListener('SIGTERM', stop)
      process.removeListener('SIGINT', stop)
    },
  }
}

export { formatCount } from './format-count.ts'
