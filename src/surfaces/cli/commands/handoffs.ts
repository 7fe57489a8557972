/** `somnus handoffs import|export|list|search`: feed the consolidation service and read every level back. */
import { basename } from 'node:path'
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import {
  formatCount,
  openService,
  type ServiceCliOptions,
  withServiceOptions,
} from '../open-service.ts'
import { register as registerPush } from './handoffs-push.ts'
import { register as registerSearch } from './handoffs-search.ts'
import { readInput } from './read-input.ts'

const FORMATS = ['json', 'jsonl', 'locomo']
const LEVELS = ['full', 'summary', 'quick_ref', 'integrated']

/** Adds `handoffs` to the program. */
export function register(program: Command, io: CliIo): void {
  const handoffs = program
    .command('handoffs')
    .description(
      'Session handoffs in the consolidation service: import, export, list, search, push',
    )

  withServiceOptions(
    handoffs
      .command('import')
      .description('Import handoffs from JSON, JSON lines, or a LoCoMo conversation')
      .argument('[file]', 'the file to import; - or nothing reads stdin'),
  )
    .option('--format <format>', `${FORMATS.join(', ')}`, 'json')
    .option('--tenant <id>', 'the tenant', 'default')
    .option('--json', 'print what was imported and skipped as JSON')
    .addHelpText(
      'after',
      `
An import is all or nothing: it is written in one transaction, so one that fails or is stopped
midway stores nothing. Running it again never duplicates: a handoff keeps its handoff_id, and one
without gets an id made from its content, so what is already there is skipped (and counted).

json: one handoff object or an array; jsonl: one handoff per line. Fields (seed 003):
session_id, with_whom, experienced, noticed, learned, story, becoming, remember, significance
(0-1), tags, created_at (ISO 8601; compression ages count from it), sources, turns
([{id, speaker, text}]: summaries then cite turn ids). Text is redacted of secrets before storing.
locomo: each session of a LoCoMo conversation becomes a handoff dated by its session date, its
dialog turns kept (ids like D3:7 are the sources its summaries cite).

Examples:
  somnus handoffs import handoffs.json
  somnus handoffs import --format locomo ../shared/datasets/locomo-dev/26.json
  cat export.jsonl | somnus handoffs import --format jsonl --tenant acme`,
    )
    .action(
      async (
        file: string | undefined,
        options: ServiceCliOptions & { format: string; tenant: string; json?: boolean },
      ) => {
        if (!FORMATS.includes(options.format)) {
          throw new SomnusError(
            'USAGE',
            `--format ${options.format} is unknown: use one of ${FORMATS.join(', ')}.`,
          )
        }
        const text = await readInput(io, file)
        const { parseHandoffInputs } = await import('./handoff-inputs.ts')
        const inputs = parseHandoffInputs(
          text,
          options.format,
          file ? basename(file).replace(/\.json$/i, '') : 'stdin',
        )
        const service = await openService(io, options)
        try {
          const result = await service.importHandoffs(options.tenant, inputs, {
            onProgress: (written, total) => {
              if (total > 1000 && written < total)
                io.stderr(`written ${formatCount(written)} of ${formatCount(total)}\n`)
            },
          })
          if (options.json) return printJson(io, { tenant_id: options.tenant, ...result })
          const skipped = result.skipped.length
          io.stdout(
            `imported ${formatCount(result.imported)} handoff(s) into tenant ${options.tenant}${skipped > 0 ? `; ${formatCount(skipped)} already there, skipped` : ''}\n`,
          )
        } finally {
          await service.close()
        }
      },
    )

  withServiceOptions(
    handoffs
      .command('export')
      .description(
        'Print every handoff with every level (full, summary, quick ref) and its sources',
      ),
  )
    .option('--tenant <id>', 'the tenant', 'default')
    .option('--level <level>', `only handoffs at this level: ${LEVELS.join(', ')}`)
    .option(
      '--json',
      'one JSON array (default: one JSON object per line, which import --format jsonl reads)',
    )
    .addHelpText(
      'after',
      `
Each handoff carries its original fields and turns, summary and quick_ref with the unit ids
they kept (summary_sources, quick_ref_sources), measured tokens per level, compression_level,
integrated_into (the principle its "becoming" joined) and consolidated_at.

Examples:
  somnus handoffs export --json > handoffs.json
  somnus handoffs export --level quick_ref | head`,
    )
    .action(
      async (options: ServiceCliOptions & { tenant: string; level?: string; json?: boolean }) => {
        const level = checkLevel(options.level)
        const service = await openService(io, options)
        try {
          if (options.json) io.stdout('[')
          let first = true
          let cursor: string | undefined
          do {
            const page = await service.listHandoffs(options.tenant, {
              limit: 500,
              cursor,
              level,
            })
            for (const handoff of page.items) {
              if (options.json)
                io.stdout(`${first ? '\n' : ',\n'}${JSON.stringify(handoff, null, 2)}`)
              else io.stdout(`${JSON.stringify(handoff)}\n`)
              first = false
            }
            cursor = page.next_cursor ?? undefined
          } while (cursor)
          if (options.json) io.stdout(first ? ']\n' : '\n]\n')
        } finally {
          await service.close()
        }
      },
    )

  withServiceOptions(
    handoffs
      .command('list')
      .description('List handoffs, newest first, with their level and tokens'),
  )
    .option('--tenant <id>', 'the tenant', 'default')
    .option('--level <level>', `only handoffs at this level: ${LEVELS.join(', ')}`)
    .option('--limit <n>', 'at most this many', '20')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .option('--json', 'print the page as JSON ({items, next_cursor})')
    .addHelpText(
      'after',
      `
Columns: id, created (UTC date), level, active tokens / full tokens, and the text of the active
level (quick ref, summary, or the first field) cut to one line.

Examples:
  somnus handoffs list
  somnus handoffs list --level summary --limit 50 --json`,
    )
    .action(
      async (
        options: ServiceCliOptions & {
          tenant: string
          level?: string
          limit: string
          cursor?: string
          json?: boolean
        },
      ) => {
        const level = checkLevel(options.level)
        const limit = Number(options.limit)
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
          throw new SomnusError(
            'USAGE',
            `--limit needs a whole number from 1 to 1000 (got "${options.limit}").`,
          )
        }
        const service = await openService(io, options)
        try {
          const page = await service.listHandoffs(options.tenant, {
            limit,
            cursor: options.cursor,
            level,
          })
          if (options.json) return printJson(io, page)
          const { handoffLine } = await import('./handoff-inputs.ts')
          for (const handoff of page.items) io.stdout(`${handoffLine(handoff)}\n`)
          if (page.items.length === 0) io.stdout(`no handoffs in tenant ${options.tenant}\n`)
          if (page.next_cursor) io.stdout(`more: --cursor ${page.next_cursor}\n`)
        } finally {
          await service.close()
        }
      },
    )
  registerSearch(handoffs, io)
  // `push` (handoffs-push.ts) sends a project's sessions to a running service over HTTP.
  registerPush(program, io)
}

function checkLevel(
  level: string | undefined,
): 'full' | 'summary' | 'quick_ref' | 'integrated' | undefined {
  if (level === undefined) return undefined
  if (!LEVELS.includes(level)) {
    throw new SomnusError('USAGE', `--level ${level} is unknown: use one of ${LEVELS.join(', ')}.`)
  }
  return level as 'full'
}
