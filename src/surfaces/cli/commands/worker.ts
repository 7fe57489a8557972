/** `somnus worker`: runs consolidation jobs from the queue (and the schedule) until stopped. */
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { CliIo } from '../cli-io.ts'
import {
  formatCount,
  openService,
  type ServiceCliOptions,
  stopOnSignals,
  withServiceOptions,
} from '../open-service.ts'

/** Adds `worker` to the program. */
export function register(program: Command, io: CliIo): void {
  withServiceOptions(
    program
      .command('worker')
      .description(
        'Run consolidation jobs from the queue until stopped; several workers on one PostgreSQL share it',
      ),
  )
    .option('--poll <ms>', 'wait between looks at an empty queue', '1000')
    .option('--until-empty', 'exit once the queue is empty instead of waiting for more jobs')
    .option('--no-schedule', 'do not run the daily/weekly/monthly schedule in this process')
    .addHelpText(
      'after',
      `
A worker claims the oldest pending job (FOR UPDATE SKIP LOCKED), a failed one whose retry is due,
or a running one whose worker stopped reporting for job_timeout_seconds (300 by default: it
died), and runs it. A failed attempt (an error, or a worker that died) is retried after
job_retry_backoff_seconds (60, doubling, at most an hour); after job_max_failures (3) the job is
dead-lettered (status dead). Job rows count items and tokens over every attempt. SIGTERM or
Ctrl-C lets the job finish its current batch, puts it back to pending (its finished batches are
saved) and exits 0. The schedule (UTC, settings "schedule") enqueues each run once however many
workers run it. Embedded PGlite allows one process at a time: use PostgreSQL for several workers.

Examples:
  somnus worker
  somnus worker --db postgres://postgres@127.0.0.1:5432/somnus --no-schedule
  somnus worker --until-empty --config service.json`,
    )
    .action(
      async (
        options: ServiceCliOptions & { poll: string; untilEmpty?: boolean; schedule: boolean },
      ) => {
        const pollMs = Number(options.poll)
        if (!Number.isFinite(pollMs) || pollMs < 10) {
          throw new SomnusError(
            'USAGE',
            `--poll needs milliseconds, at least 10 (got "${options.poll}").`,
          )
        }
        const stop = stopOnSignals()
        const service = await openService(io, options)
        const stopSchedule = options.schedule
          ? await service.startScheduler({
              onEnqueued: (run, added) =>
                io.stdout(`schedule: ${run} run enqueued ${formatCount(added)} job(s)\n`),
              onError: (error) =>
                io.stderr(
                  `somnus: schedule: ${error instanceof Error ? error.message : String(error)}\n`,
                ),
            })
          : () => {}
        io.stdout(`worker started (${service.description}); SIGTERM or Ctrl-C stops it\n`)
        try {
          await service.work({
            signal: stop.signal,
            pollMs,
            untilEmpty: options.untilEmpty ?? false,
            onJobStart: (job) =>
              io.stdout(
                `job ${job.job_id} ${job.job_type} (tenant ${job.tenant_id}, attempt ${job.attempts}) started\n`,
              ),
            onProgress: (job, tally) =>
              io.stdout(
                `job ${job.job_id} ${formatCount(tally.items_processed)} processed, ${formatCount(tally.items_affected)} affected\n`,
              ),
            onJobEnd: (end) => {
              const id = `job ${end.job.job_id} ${end.job.job_type}`
              if (end.status === 'completed')
                io.stdout(
                  `${id} completed: ${formatCount(end.outcome.items_processed)} processed, ${formatCount(end.outcome.items_affected)} affected, ${formatCount(end.outcome.tokens_saved)} tokens saved\n`,
                )
              else if (end.status === 'failed')
                io.stdout(
                  `${id} failed${end.as === 'dead' ? ' (dead-lettered: its retry limit is reached)' : ' (retried after a backoff)'}: ${end.error}\n`,
                )
              else if (end.status === 'released')
                io.stdout(`${id} released (stopping): back to pending, finished batches kept\n`)
              else io.stdout(`${id} lost: another worker took it over\n`)
            },
          })
        } finally {
          stopSchedule()
          stop.dispose()
          await service.close()
        }
        io.stdout('worker stopped\n')
      },
    )
}
