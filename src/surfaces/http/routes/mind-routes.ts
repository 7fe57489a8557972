/**
 * The creature sleep cycle per tenant (seed 004, docs/design/origins.md): post conversation events
 * (actions count toward fatigue), sleep (the rules decide pause, light or full consolidation),
 * wake, and read status, observations, dreams, recall and the context window. The API key's tenant
 * names the creature.
 */
import { Hono } from 'hono'
import { isSomnusError, SomnusError } from '../../../engine/core/errors.ts'
import type { SleepResult } from '../../../mind/index.ts'
import { validateBody, validateParams, validateQuery } from '../route-validators.ts'
import type { ServiceApi } from '../service-api.ts'
import { type MindEnv, mindMiddleware, tenantMiddleware } from '../tenant-middleware.ts'
import type { TenantMinds } from '../tenant-minds.ts'
import {
  contextRoute,
  dreamsRoute,
  eventsRoute,
  observationsRoute,
  recallRoute,
  sleepRoute,
  statusRoute,
  toolsRoute,
  wakeRoute,
} from './mind-route-descriptions.ts'

/** The mind endpoints, mounted at `/api/v1/mind`; each tenant's creature comes from `minds`. */
export function mindRoutes(service: ServiceApi, minds: TenantMinds) {
  const tenant = tenantMiddleware(service)
  const creature = mindMiddleware(minds)
  return new Hono<MindEnv>()
    .post(
      '/events',
      validateParams(eventsRoute),
      validateQuery(eventsRoute),
      validateBody(eventsRoute),
      tenant,
      creature,
      async (c) => {
        const mind = c.var.mind
        const results = []
        let warning: string | null = null
        const forcedSleeps: SleepResult[] = []
        for (const event of c.req.valid('json').events) {
          if (event.type === 'message') {
            const { line } = await mind.record({
              role: event.role,
              content: event.content,
              name: event.name,
              at: event.at,
            })
            results.push({ type: event.type, line })
            continue
          }
          const result = await mind.action({
            tool: event.tool,
            content: event.content,
            at: event.at,
          })
          warning ??= result.warning
          if (result.forcedSleep) forcedSleeps.push(result.forcedSleep)
          results.push({ type: event.type, ...result })
        }
        return c.json(
          {
            success: true as const,
            tenant_id: c.var.tenantId,
            results,
            actions: (await mind.status()).actions,
            warning,
            forced_sleep: forcedSleeps.at(-1) ?? null,
            forced_sleeps: forcedSleeps,
          },
          200,
        )
      },
    )
    .post(
      '/sleep',
      validateParams(sleepRoute),
      validateQuery(sleepRoute),
      validateBody(sleepRoute),
      tenant,
      creature,
      async (c) => {
        try {
          const slept = await c.var.mind.setSleep({ seconds: c.req.valid('json').seconds })
          return c.json({ success: true as const, tenant_id: c.var.tenantId, ...slept }, 200)
        } catch (error) {
          // Out of the creature's range (its settings may differ from the defaults): the field's fault.
          if (isSomnusError(error) && error.code === 'USAGE') {
            throw new SomnusError('INVALID_INPUT', `seconds (in the body): ${error.message}`, {
              cause: error,
              details: { field: 'seconds' },
            })
          }
          throw error
        }
      },
    )
    .post(
      '/wake',
      validateParams(wakeRoute),
      validateQuery(wakeRoute),
      tenant,
      creature,
      async (c) =>
        c.json(
          { success: true as const, tenant_id: c.var.tenantId, ...(await c.var.mind.wake()) },
          200,
        ),
    )
    .get(
      '/status',
      validateParams(statusRoute),
      validateQuery(statusRoute),
      tenant,
      creature,
      async (c) =>
        c.json(
          { success: true as const, tenant_id: c.var.tenantId, ...(await c.var.mind.status()) },
          200,
        ),
    )
    .get(
      '/observations',
      validateParams(observationsRoute),
      validateQuery(observationsRoute),
      tenant,
      creature,
      async (c) => {
        const { priority } = c.req.valid('query')
        const listed = await c.var.mind.observations(priority ? { priority } : {})
        return c.json({ success: true as const, tenant_id: c.var.tenantId, ...listed }, 200)
      },
    )
    .get(
      '/dreams',
      validateParams(dreamsRoute),
      validateQuery(dreamsRoute),
      tenant,
      creature,
      async (c) => {
        const dreams = await c.var.mind.dreams(c.req.valid('query').limit)
        return c.json({ success: true as const, tenant_id: c.var.tenantId, dreams }, 200)
      },
    )
    .get(
      '/recall',
      validateParams(recallRoute),
      validateQuery(recallRoute),
      tenant,
      creature,
      async (c) => {
        const query = c.req.valid('query')
        const hits = await c.var.mind.recall(query.q, query.limit)
        return c.json({ success: true as const, tenant_id: c.var.tenantId, hits }, 200)
      },
    )
    .get(
      '/context',
      validateParams(contextRoute),
      validateQuery(contextRoute),
      tenant,
      creature,
      async (c) =>
        c.json(
          { success: true as const, tenant_id: c.var.tenantId, ...(await c.var.mind.context()) },
          200,
        ),
    )
    .get(
      '/tools',
      validateParams(toolsRoute),
      validateQuery(toolsRoute),
      tenant,
      creature,
      async (c) =>
        c.json(
          { success: true as const, tenant_id: c.var.tenantId, tools: [c.var.mind.setSleepTool] },
          200,
        ),
    )
}
