/**
 * `handoff_compression`: every handoff whose age has outgrown its level gets the levels it lacks
 * (summary ~500 tokens, quick ref ~100 tokens, from the model port, citing their sources) and
 * moves up. The original fields are never touched. Works in batches, each committed with its stats
 * row, so a job that dies is resumed by the next run without doing or counting anything twice.
 */

import { countTokens } from '../../engine/core/tokens.ts'
import {
  type CompressibleHandoff,
  handoffUnits,
  levelTokens,
  planCompression,
} from '../core/compression-plan.ts'
import type { Handoff } from '../core/handoff.ts'
import type { CompressionUpdate, LevelCutoffs } from '../ports/service-stores.ts'
import type { JobContext, JobOutcome } from './job-context.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

const DAY_MS = 86_400_000

/** The instants before which a handoff is old enough for each level, at `asOf`. */
export function levelCutoffs(asOf: Date, config: ServiceDependencies['config']): LevelCutoffs {
  const before = (days: number) => new Date(asOf.getTime() - days * DAY_MS).toISOString()
  return {
    summary: before(config.summary_threshold_days),
    quick_ref: before(config.quick_ref_threshold_days),
    integrated: before(config.integration_threshold_days),
  }
}

/** One handoff's update and the active tokens it had and will have. */
interface Planned {
  update: CompressionUpdate
  before: number
  after: number
}

async function planOne(
  dependencies: ServiceDependencies,
  handoff: Handoff,
  context: JobContext,
): Promise<Planned | null> {
  const { config, model } = dependencies
  const step = planCompression(handoff, context.asOf, config)
  if (!step) return null
  const made = await makeLevels(model, handoff, step, config, context.signal)
  // A level is worth keeping only when it is shorter than the text it stands for (a model may
  // return more than it was given); otherwise the text below it stays the active one.
  const summary = made.summary && made.summary.tokens < handoff.full_tokens ? made.summary : null
  const below = summary?.tokens ?? handoff.summary_tokens ?? handoff.full_tokens
  const quickRef = made.quickRef && made.quickRef.tokens < below ? made.quickRef : null
  const after: CompressibleHandoff = {
    ...handoff,
    summary_tokens: summary?.tokens ?? handoff.summary_tokens,
    quick_ref_tokens: quickRef?.tokens ?? handoff.quick_ref_tokens,
  }
  return {
    update: {
      handoff_id: handoff.handoff_id,
      from: handoff.compression_level,
      to: step.target,
      summary,
      quick_ref: quickRef,
      consolidated_at: context.asOf.toISOString(),
    },
    before: levelTokens(handoff, handoff.compression_level),
    after: levelTokens(after, step.target),
  }
}

/** A level's text, the unit ids it kept, and its tokens as the tokenizer counts them. */
export interface MadeLevel {
  text: string
  sources: string[]
  tokens: number
}

/**
 * Makes the levels `step` asks for. The quick ref is drawn from the units the summary kept (made
 * now or earlier): each level compresses the one before it, as the seed's progression says, and
 * the smaller input keeps the second pass cheap. A model with `summarizeLevels` makes both levels
 * from one preparation of the text.
 */
export async function makeLevels(
  model: ServiceDependencies['model'],
  handoff: Handoff,
  step: { needsSummary: boolean; needsQuickRef: boolean },
  config: Pick<ServiceDependencies['config'], 'summary_budget_tokens' | 'quick_ref_budget_tokens'>,
  signal?: AbortSignal | undefined,
): Promise<{ summary: MadeLevel | null; quickRef: MadeLevel | null }> {
  const units = handoffUnits(handoff)
  if (step.needsSummary && step.needsQuickRef && model.summarizeLevels) {
    const { value } = await model.summarizeLevels({
      units,
      budgets: [config.summary_budget_tokens, config.quick_ref_budget_tokens],
      signal,
    })
    const [summary, quickRef] = value.map((made) => ({
      text: made.text,
      sources: made.sources,
      tokens: made.tokens,
    }))
    return { summary: summary ?? null, quickRef: quickRef ?? null }
  }
  const level = async (
    from: typeof units,
    budgetTokens: number,
    terse: boolean,
  ): Promise<MadeLevel> => {
    const { value } = await model.summarize({ units: from, budgetTokens, terse, signal })
    return { text: value.text, sources: value.sources, tokens: countTokens(value.text) }
  }
  const summary = step.needsSummary ? await level(units, config.summary_budget_tokens, false) : null
  if (!step.needsQuickRef) return { summary, quickRef: null }
  const kept = new Set(summary?.sources ?? handoff.summary_sources)
  const narrowed = units.filter((unit) => kept.has(unit.id))
  const quickRef = await level(
    narrowed.length > 0 ? narrowed : units,
    config.quick_ref_budget_tokens,
    true,
  )
  return { summary, quickRef }
}

/** Runs the compression job for one tenant. */
export async function compressHandoffs(
  dependencies: ServiceDependencies,
  context: JobContext,
): Promise<JobOutcome> {
  const { config, stores } = dependencies
  const cutoffs = levelCutoffs(context.asOf, config)
  const tally = { items_processed: 0, items_affected: 0, tokens_saved: 0 }
  const levelsMade = { summary: 0, quick_ref: 0 }
  let stopped = false
  const fetchAfter = (afterId: string | null) =>
    quiet(
      stores.handoffs.findCompressible(context.tenantId, {
        cutoffs,
        budgets: {
          summary: config.summary_budget_tokens,
          quick_ref: config.quick_ref_budget_tokens,
        },
        afterId,
        limit: config.compression_batch_size,
      }),
    )
  const write = async (batch: readonly Handoff[], planned: readonly Planned[]) => {
    const changed = await stores.transaction(async (inside) => {
      const ids = new Set(
        await inside.handoffs.applyCompression(
          context.tenantId,
          planned.map((item) => item.update),
        ),
      )
      // Only what this batch really changed is counted: a row another run got to first is not.
      const applied = planned.filter((item) => ids.has(item.update.handoff_id))
      if (applied.length > 0) {
        await inside.stats.add(context.tenantId, context.statDate, 'handoff_compression', {
          before_count: applied.length,
          before_tokens: sum(applied.map((item) => item.before)),
          after_count: applied.length,
          after_tokens: sum(applied.map((item) => item.after)),
        })
      }
      await context.record(inside, {
        items_processed: batch.length,
        items_affected: applied.length,
        tokens_saved: sum(applied.map((item) => item.before - item.after)),
      })
      return applied
    })
    tally.items_processed += batch.length
    tally.items_affected += changed.length
    tally.tokens_saved += sum(changed.map((item) => item.before - item.after))
    for (const item of changed) {
      if (item.update.summary) levelsMade.summary += 1
      if (item.update.quick_ref) levelsMade.quick_ref += 1
    }
    await context.report(tally)
  }
  // A pipeline: while one batch is summarized (CPU), the database reads the next and writes the
  // one before, so its round trips and its own work overlap the summarizer's.
  let next = fetchAfter(null)
  let writing: Promise<void> = Promise.resolve()
  try {
    for (;;) {
      if (context.signal?.aborted) {
        stopped = true
        break
      }
      const batch = await next
      if (batch.length === 0) break
      next = fetchAfter(batch[batch.length - 1]?.handoff_id ?? null)
      // Let the read go out before the summarizer holds the thread.
      await new Promise((resolve) => setImmediate(resolve))
      // The write before may stop the job (its progress report) while this batch is planned.
      const planned = (
        await mapInOrder(batch, dependencies.model.concurrency ?? 1, (handoff) =>
          context.signal?.aborted ? null : planOne(dependencies, handoff, context),
        )
      ).filter((one): one is Planned => one !== null)
      await writing
      // Stopped while this batch was being summarized: it is left for the next run, unwritten.
      if (context.signal?.aborted) {
        stopped = true
        break
      }
      writing = quiet(write(batch, planned))
    }
  } catch (error) {
    // A failed batch fails the job, but only once the write already under way has settled.
    await writing.catch(() => {})
    throw error
  }
  await writing
  return {
    ...tally,
    stopped,
    details: {
      summary_threshold: config.summary_threshold_days,
      quick_ref_threshold: config.quick_ref_threshold_days,
      integration_threshold: config.integration_threshold_days,
      summaries_made: levelsMade.summary,
      quick_refs_made: levelsMade.quick_ref,
      model: dependencies.model.name,
    },
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

/** The promise itself, marked handled so it may settle before anyone awaits it. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {})
  return promise
}

/** `map` with at most `limit` calls of `each` in flight; results in input order. */
async function mapInOrder<T, R>(
  items: readonly T[],
  limit: number,
  each: (item: T) => Promise<R> | R,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const at = next
      next += 1
      results[at] = await each(items[at] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane))
  return results
}
