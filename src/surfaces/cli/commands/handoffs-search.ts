/** `somnus handoffs search <query...>`: find turns, fields and summaries in a tenant's handoffs. */
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import {
  DEFAULT_SEARCH_LIMIT,
  type HandoffSearchHit,
  MAX_QUERY_CHARS,
  MAX_SEARCH_LIMIT,
  SEARCH_LEVELS,
  type SearchLevel,
} from '../../../service/service-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openService, type ServiceCliOptions, withServiceOptions } from '../open-service.ts'

/** Adds `handoffs search` to the `handoffs` command. */
export function register(handoffs: Command, io: CliIo): void {
  withServiceOptions(
    handoffs
      .command('search')
      .description(
        "Search a tenant's handoffs: every level (full, summary, quick ref) and every turn",
      )
      .argument('<query...>', 'what to look for, in plain words'),
  )
    .option('--tenant <id>', 'the tenant', 'default')
    .option(
      '--limit <n>',
      `at most this many hits (1-${MAX_SEARCH_LIMIT})`,
      String(DEFAULT_SEARCH_LIMIT),
    )
    .option('--level <level>', `search only this text: ${SEARCH_LEVELS.join(', ')}`)
    .option('--json', 'print the hits as JSON ({tenant_id, query, count, hits})')
    .addHelpText(
      'after',
      `
Each hit names its handoff and the unit it came from: a turn id (D3:7 for a LoCoMo conversation
imported with \`handoffs import --format locomo\`), a field (learned, noticed ...), summary or
quick_ref; then the speaker (turns), the session's date and the text around the words that
matched. Best first. Words match in any form ("moved" finds "moving"); any characters are words,
never query syntax. A turn is also found by who said it and the turns beside it. A question
that names a date ("in July 2022", "on 1 May, 2022") or a speaker ranks the sessions of that
date (and the week after) and that speaker's turns higher.

--level full searches the original fields and turns; summary and quick_ref the levels that
consolidation added (a handoff has them once it is old enough; see \`somnus consolidate\`).
Everything a handoff holds is searchable as soon as it is stored; a deleted one is gone at once.

Examples:
  somnus handoffs search support group --tenant locomo
  somnus handoffs search "why did the deploy fail" --level summary --limit 5 --json`,
    )
    .action(
      async (
        words: string[],
        options: ServiceCliOptions & {
          tenant: string
          limit: string
          level?: string
          json?: boolean
        },
      ) => {
        const text = words.join(' ').trim()
        if (text === '' || text.length > MAX_QUERY_CHARS) {
          throw new SomnusError(
            'USAGE',
            `<query> needs 1 to ${MAX_QUERY_CHARS} characters of words to look for (got ${text.length}).`,
          )
        }
        const limit = Number(options.limit)
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
          throw new SomnusError(
            'USAGE',
            `--limit needs a whole number from 1 to ${MAX_SEARCH_LIMIT} (got "${options.limit}").`,
          )
        }
        const level = options.level
        if (level !== undefined && !(SEARCH_LEVELS as readonly string[]).includes(level)) {
          throw new SomnusError(
            'USAGE',
            `--level ${level} is unknown: use one of ${SEARCH_LEVELS.join(', ')}.`,
          )
        }
        const service = await openService(io, options)
        try {
          const hits = await service.searchHandoffs(options.tenant, {
            text,
            limit,
            level: level as SearchLevel | undefined,
          })
          if (options.json) {
            return printJson(io, {
              tenant_id: options.tenant,
              query: text,
              count: hits.length,
              hits,
            })
          }
          if (hits.length === 0) io.stdout(`no hits in tenant ${options.tenant}\n`)
          for (const hit of hits) io.stdout(hitLines(hit))
        } finally {
          await service.close()
        }
      },
    )
}

/** `locomo-26-s3 D3:7 (Caroline, 2023-07-12)` and the snippet, indented. */
function hitLines(hit: HandoffSearchHit): string {
  const who = hit.speaker === null ? '' : `${hit.speaker}, `
  const level = hit.level === 'full' ? '' : ` [${hit.level}]`
  return `${hit.handoff_id} ${hit.unit}${level} (${who}${hit.created_at.slice(0, 10)})\n  ${hit.snippet}\n`
}
