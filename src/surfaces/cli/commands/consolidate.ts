/**
 * `somnus consolidate run`: seed 003's `consolidation:run` (docs/design/origins.md), with progress
 * on long runs.
 */
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import { isStorableInstant } from '../../../service/service-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import {
  formatCount,
  openService,
  type ServiceCliOptions,
  stopOnSignals,
  withServiceOptions,
} from '../open-service.ts'

const JOB_TYPES = ['all', 'identity_consolidation', 'handoff_compression', 'decision_archival']

/** Adds `consolidate` to the program. */
export function register(program: Command, io: CliIo): void {
  const consolidate = program
    .command('consolidate')
    .description('Run the consolidation service jobs now (seed 003 consolidation:run)')
  withServiceOptions(
    consolidate
      .command('run')
      .description(
        'Run consolidation jobs for a tenant now: identity, handoff compression, decision archival',
      ),
  )
    .option('--tenant <id>', 'the tenant', 'default')
    .option('--job-type <type>', `one of ${JOB_TYPES.join(', ')}`, 'all')
    .option('--as-of <date>', 'what "now" is (YYYY-MM-DD or ISO 8601); default: the current time')
    .option('--json', "print the seed's run response as JSON")
    .addHelpText(
      'after',
      `
The jobs run in this process (POST /run on a server queues them for a worker instead). Each job
is recorded in consolidation_jobs (pending → running → completed, or failed: retried after a
backoff, then dead) and adds its measured before/after counts and tokens to consolidation_stats.
Reruns are idempotent: what is already at its level is left alone. Progress goes to stderr after
every batch.

Examples:
  somnus consolidate run
  somnus consolidate run --job-type handoff_compression --as-of 2026-09-01
  somnus consolidate run --tenant acme --db postgres://postgres@127.0.0.1/somnus --json`,
    )
    .action(
      async (
        options: ServiceCliOptions & {
          tenant: string
          jobType: string
          asOf?: string
          json?: boolean
        },
      ) => {
        if (!JOB_TYPES.includes(options.jobType)) {
          throw new SomnusError(
            'USAGE',
            `--job-type ${options.jobType} is not a job type: use one of ${JOB_TYPES.join(', ')}.`,
          )
        }
        const asOf = options.asOf === undefined ? undefined : parseAsOf(options.asOf)
        const stop = stopOnSignals()
        const service = await openService(io, options)
        try {
          const response = await service.runConsolidation({
            tenantId: options.tenant,
            jobType: options.jobType as 'all',
            asOf,
            signal: stop.signal,
            onJobStart: (job) => io.stderr(`${job.job_type}: started (job ${job.job_id})\n`),
            onProgress: (job, tally) =>
              io.stderr(
                `${job.job_type}: ${formatCount(tally.items_processed)} processed, ${formatCount(tally.items_affected)} affected, ${formatCount(tally.tokens_saved)} tokens saved\n`,
              ),
          })
          if (options.json) printJson(io, response)
          else {
            for (const result of response.results) {
              io.stdout(
                `${result.job_type}: ${String(result.details.status)}, ${formatCount(result.items_processed)} processed, ${formatCount(result.items_affected)} affected, ${formatCount(result.tokens_saved)} tokens saved${result.details.error ? ` (${String(result.details.error)})` : ''}\n`,
              )
            }
          }
          if (!response.success) {
            throw new SomnusError(
              'MODEL_FAILED',
              'A consolidation job failed: see its error above.',
            )
          }
        } finally {
          stop.dispose()
          await service.close()
        }
      },
    )
}

/** `2026-09-01` (midnight UTC) or a full ISO 8601 instant. */
export function parseAsOf(value: string): Date {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000Z` : value
  const date = new Date(text)
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || !isStorableInstant(text)) {
    throw new SomnusError(
      'USAGE',
      `--as-of needs a date like 2026-09-01 or 2026-09-01T12:00:00Z, in the years 0001 to 9999 (got "${value}").`,
    )
  }
  return date
}
