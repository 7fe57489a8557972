/** Records a decision a client sends: redacted, dated, active, with an id given when it has none. */
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { Decision, DecisionInput } from '../core/decision.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Stores `input` as an active decision of `tenantId` and returns it as stored. */
export async function recordDecision(
  dependencies: Pick<ServiceDependencies, 'stores' | 'clock' | 'ids'>,
  tenantId: string,
  input: DecisionInput,
): Promise<Decision> {
  const now = dependencies.clock.now().toISOString()
  const decision: Decision = {
    decision_id: input.decision_id ?? dependencies.ids.next('dc'),
    tenant_id: tenantId,
    kind: 'decision',
    decision: redactSecrets(input.decision),
    rationale:
      input.rationale === null || input.rationale === undefined
        ? null
        : redactSecrets(input.rationale),
    status: 'active',
    scope: input.scope ?? 'project',
    sources: (input.sources ?? []).map((source) => redactSecrets(source)),
    created_at: new Date(input.created_at ?? now).toISOString(),
    updated_at: now,
    superseded_at: null,
  }
  await dependencies.stores.decisions.insert(decision)
  return decision
}
