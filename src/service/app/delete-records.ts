/**
 * Forgetting, as a tenant may ask: one handoff, one decision or principle, or the whole tenant.
 * Each runs in one transaction. A deleted handoff also leaves what was derived from it by id: its
 * id leaves the sources of the principles and decisions that cited it, and its "becoming" statement
 * leaves a principle's quoted rationale. (A principle's own wording, chosen from its theme, is the
 * principle's: delete the principle too if that must go.) A deleted principle frees the handoffs
 * merged into it, so a later identity run may group them again.
 */
import type { Decision } from '../core/decision.ts'
import type { Handoff } from '../core/handoff.ts'
import type { TenantHoldings } from '../ports/service-stores.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Deletes one handoff of `tenantId`; null if it has none by that id. */
export async function deleteHandoff(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
  handoffId: string,
): Promise<Handoff | null> {
  return dependencies.stores.transaction(async (stores) => {
    const deleted = await stores.handoffs.delete(tenantId, handoffId)
    if (deleted === null) return null
    const quote = deleted.integrated_into === null ? null : deleted.becoming
    await stores.decisions.forgetSource(tenantId, handoffId, quote)
    return deleted
  })
}

/** Deletes one decision or principle of `tenantId`; null if it has none by that id. */
export async function deleteDecision(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
  decisionId: string,
): Promise<Decision | null> {
  return dependencies.stores.transaction(async (stores) => {
    const deleted = await stores.decisions.delete(tenantId, decisionId)
    if (deleted?.kind === 'principle') await stores.handoffs.clearIntegration(tenantId, decisionId)
    return deleted
  })
}

/** Deletes tenant `tenantId` and every row it has; returns what it held, or null if none. */
export async function deleteTenantRows(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
): Promise<TenantHoldings | null> {
  return dependencies.stores.transaction(async (stores) => {
    if ((await stores.tenants.get(tenantId)) === null) return null
    const holdings = await stores.tenants.holdings(tenantId)
    await stores.tenants.delete(tenantId)
    return holdings
  })
}
