/**
 * The seed's schedule on croner (UTC): each tick hands its run and slot to `onTick`. The slot is
 * the scheduled second, not the moment the timer fired, so every instance computes the same one.
 */
import { Cron } from 'croner'
import { SomnusError } from '../../../engine/core/errors.ts'

/** The three runs' cron expressions; an empty one is off. */
export interface CronSchedule {
  daily: string
  weekly: string
  monthly: string
}

/** Starts a cron job per non-empty expression; returns a function that stops them all. */
export function startCronSchedule(
  schedule: CronSchedule,
  onTick: (run: keyof CronSchedule, slot: Date) => Promise<void>,
): () => void {
  const jobs: Cron[] = []
  const stopAll = () => {
    for (const job of jobs) job.stop()
  }
  for (const run of ['daily', 'weekly', 'monthly'] as const) {
    const pattern = schedule[run]
    if (pattern.trim() === '') continue
    try {
      const job: Cron = new Cron(
        pattern,
        { timezone: 'UTC', protect: true, catch: true },
        async () => {
          const slot = job.previousRuns(1, new Date())[0] ?? new Date()
          await onTick(run, slot)
        },
      )
      jobs.push(job)
    } catch (error) {
      stopAll()
      throw new SomnusError(
        'INVALID_INPUT',
        `Service setting schedule.${run} "${pattern}" is not a cron expression (${(error as Error).message}); use e.g. "0 2 * * *", or "" to switch that run off.`,
      )
    }
  }
  return stopAll
}
