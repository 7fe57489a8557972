/**
 * `identity_consolidation`: "becoming" statements that say the same thing, grouped by meaning with
 * the model's `groupSimilar` (not by one shared word, as the public code did), become principles:
 * decisions of kind `principle`, scope `global`, citing the handoffs they came from. As seed 003
 * says ("min becoming statements before consolidation"), nothing is grouped until the tenant has
 * `identity_consolidation_min_count` statements; then a group of `identity_theme_min_size` or more
 * is a recurring theme and becomes a principle. Active
 * principles take part in the grouping, so a statement that joins an existing theme is added to
 * that principle instead of starting a duplicate; a statement once merged is not read again, so a
 * rerun changes nothing.
 */

import { countTokens } from '../../engine/core/tokens.ts'
import type { Unit } from '../../engine/ports/language-model.ts'
import type { Decision } from '../core/decision.ts'
import type { JobContext, JobOutcome } from './job-context.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Unit ids of principles in a grouping request, told apart from handoff ids. */
const PRINCIPLE_PREFIX = 'principle:'

/** Statements quoted in a new principle's rationale; the rest are in its sources. */
const QUOTED_STATEMENTS = 20

/** Runs identity consolidation for one tenant. */
export async function consolidateIdentity(
  dependencies: ServiceDependencies,
  context: JobContext,
): Promise<JobOutcome> {
  const { config, stores, model, ids } = dependencies
  const tally = { items_processed: 0, items_affected: 0, tokens_saved: 0 }
  const outcome = { principles_created: 0, principles_extended: 0, statements_merged: 0 }
  const settings = {
    identity_consolidation_min_count: config.identity_consolidation_min_count,
    identity_theme_min_size: config.identity_theme_min_size,
    similarity_threshold: config.identity_similarity_threshold,
  }
  const becomingStatements = await stores.handoffs.countBecoming(context.tenantId)
  if (becomingStatements < config.identity_consolidation_min_count) {
    return {
      ...tally,
      stopped: false,
      details: { ...settings, becoming_statements: becomingStatements, ...outcome, grouped: false },
    }
  }
  let afterId: string | null = null
  let stopped = false
  for (;;) {
    if (context.signal?.aborted) {
      stopped = true
      break
    }
    const statements = await stores.handoffs.findUnintegratedBecoming(context.tenantId, {
      limit: config.identity_batch_size,
      afterId,
    })
    if (statements.length === 0) break
    afterId = statements[statements.length - 1]?.handoff_id ?? afterId
    const principles = await stores.decisions.activePrinciples(context.tenantId)
    const units: Unit[] = [
      ...principles.map((principle) => ({
        id: `${PRINCIPLE_PREFIX}${principle.decision_id}`,
        text: principle.decision,
      })),
      ...statements.map((statement) => ({ id: statement.handoff_id, text: statement.becoming })),
    ]
    const { value: groups } = await model.groupSimilar({
      units,
      threshold: config.identity_similarity_threshold,
      signal: context.signal,
    })
    const textOf = new Map(
      statements.map((statement) => [statement.handoff_id, statement.becoming]),
    )
    const now = context.asOf.toISOString()
    const batch = { before_count: 0, before_tokens: 0, after_count: 0, after_tokens: 0 }
    const affected = await stores.transaction(async (inside) => {
      let merged = 0
      for (const group of groups) {
        const existing = group.members.find((member) => member.startsWith(PRINCIPLE_PREFIX))
        const members = group.members.filter((member) => textOf.has(member))
        if (members.length === 0) continue
        const statementTokens = members.reduce(
          (total, member) => total + countTokens(textOf.get(member) ?? ''),
          0,
        )
        let principleId: string
        if (existing) {
          principleId = existing.slice(PRINCIPLE_PREFIX.length)
          await inside.decisions.addSources(context.tenantId, principleId, members, now)
          outcome.principles_extended += 1
        } else if (members.length >= config.identity_theme_min_size) {
          const principle = newPrinciple(
            ids.next('dp'),
            context.tenantId,
            group.label,
            members,
            textOf,
            now,
          )
          await inside.decisions.insert(principle)
          principleId = principle.decision_id
          outcome.principles_created += 1
          batch.after_count += 1
          batch.after_tokens += countTokens(principle.decision)
        } else {
          continue
        }
        await inside.handoffs.markIntegrated(context.tenantId, members, principleId)
        outcome.statements_merged += members.length
        batch.before_count += members.length
        batch.before_tokens += statementTokens
        merged += members.length
      }
      if (batch.before_count > 0)
        await inside.stats.add(context.tenantId, context.statDate, 'identity_consolidation', batch)
      await context.record(inside, {
        items_processed: statements.length,
        items_affected: merged,
        tokens_saved: batch.before_tokens - batch.after_tokens,
      })
      return merged
    })
    tally.items_affected += affected
    tally.items_processed += statements.length
    tally.tokens_saved += batch.before_tokens - batch.after_tokens
    await context.report(tally)
    if (statements.length < config.identity_batch_size) break
  }
  return {
    ...tally,
    stopped,
    details: {
      ...settings,
      becoming_statements: becomingStatements,
      ...outcome,
      grouped: true,
      model: model.name,
    },
  }
}

function newPrinciple(
  decisionId: string,
  tenantId: string,
  label: string,
  members: readonly string[],
  textOf: ReadonlyMap<string, string>,
  now: string,
): Decision {
  const quoted = members
    .slice(0, QUOTED_STATEMENTS)
    .map((member) => `- ${textOf.get(member) ?? ''}`)
  const more = members.length - quoted.length
  return {
    decision_id: decisionId,
    tenant_id: tenantId,
    kind: 'principle',
    decision: label,
    rationale: [
      `Consolidated from ${members.length} "becoming" statements:`,
      ...quoted,
      ...(more > 0 ? [`- … and ${more} more (see sources)`] : []),
    ].join('\n'),
    status: 'active',
    scope: 'global',
    sources: [...members],
    created_at: now,
    updated_at: now,
    superseded_at: null,
  }
}
