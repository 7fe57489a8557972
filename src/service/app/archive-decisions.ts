/**
 * `decision_archival`: active decisions older than the threshold (60 days) become `superseded`:
 * out of the active set, still readable. Principles are identity, not working decisions, and are
 * left active (the public code archived them too, which undid identity consolidation).
 */
import { countTokens } from '../../engine/core/tokens.ts'
import type { JobContext, JobOutcome } from './job-context.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

const DAY_MS = 86_400_000

/** Runs decision archival for one tenant. */
export async function archiveDecisions(
  dependencies: ServiceDependencies,
  context: JobContext,
): Promise<JobOutcome> {
  const { config, stores } = dependencies
  const cutoff = new Date(
    context.asOf.getTime() - config.decision_archive_threshold_days * DAY_MS,
  ).toISOString()
  const tally = await stores.transaction(async (inside) => {
    const changed = await inside.decisions.archiveOlderThan(
      context.tenantId,
      cutoff,
      context.asOf.toISOString(),
    )
    const tokens = changed.reduce(
      (total, decision) =>
        total + countTokens([decision.decision, decision.rationale ?? ''].join('\n')),
      0,
    )
    if (changed.length > 0) {
      await inside.stats.add(context.tenantId, context.statDate, 'decision_archival', {
        before_count: changed.length,
        before_tokens: tokens,
        after_count: 0,
        after_tokens: 0,
      })
    }
    const done = {
      items_processed: changed.length,
      items_affected: changed.length,
      tokens_saved: tokens,
    }
    await context.record(inside, done)
    return done
  })
  await context.report(tally)
  return {
    ...tally,
    stopped: false,
    details: {
      decision_archive_threshold: config.decision_archive_threshold_days,
      archived_before: cutoff,
    },
  }
}
