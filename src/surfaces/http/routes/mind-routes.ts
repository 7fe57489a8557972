/**
 * The creature sleep cycle per tenant (seed 004, docs/design/origins.md): post conversation events
 * (actions count toward fatigue), sleep (the rules decide pause, light or full consolidation),
 * wake, and read status, observations, dreams, recall and the context window. The API key's tenant
 * names the creature.
 */
import { Hono } from 'hono'
import type { SleepResult } from '../../../app/mind/sleep-mind.ts'
import { isSomnusError, SomnusError } from '../../../core/errors.ts'
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
import { validateBody, validateParams, validateQuery } from '../route-validators.ts'
import { errorAnswers, TenantQuerySchema } from '../schemas/common-schemas.ts'
import {
  MindContextResponseSchema,
  MindDreamsQuerySchema,
  MindDreamsResponseSchema,
  MindEventsInputSchema,
  MindEventsResponseSchema,
  MindObservationsQuerySchema,
  MindObservationsResponseSchema,
  MindRecallQuerySchema,
  MindRecallResponseSchema,
  MindSleepInputSchema,
  MindSleepResponseSchema,
  MindStatusResponseSchema,
  MindToolsResponseSchema,
  MindWakeResponseSchema,
} from '../schemas/mind-schemas.ts'
import type { ServiceApi } from '../service-api.ts'
import { type MindEnv, mindMiddleware, tenantMiddleware } from '../tenant-middleware.ts'
import type { TenantMinds } from '../tenant-minds.ts'

const TAGS = ['mind']

const eventsRoute: ApiRoute<undefined, typeof TenantQuerySchema, typeof MindEventsInputSchema> = {
  method: 'post',
  path: '/api/v1/mind/events',
  tags: TAGS,
  summary: "Log conversation events to the tenant's creature",
  description:
    'Messages and actions, in order. Every action counts toward fatigue: the warning comes once at 60, and at 80 the creature consolidates and is put to sleep (forced_sleeps lists every such sleep in the batch; forced_sleep is the last); an action while asleep is logged and counted, and its result says so (asleep); wake it with POST /api/v1/mind/wake. Text is redacted of secrets before it is logged.',
  query: TenantQuerySchema,
  body: MindEventsInputSchema,
  answers: {
    200: { description: 'Each event logged, with its line', schema: MindEventsResponseSchema },
    ...errorAnswers(400, 401, 404, 415),
  },
}

const sleepRoute: ApiRoute<undefined, typeof TenantQuerySchema, typeof MindSleepInputSchema> = {
  method: 'post',
  path: '/api/v1/mind/sleep',
  tags: TAGS,
  summary: 'Sleep (set_sleep): consolidate, or only pause',
  description:
    'A sleep of 30 s or more, at least 10 minutes after the last dream, consolidates (a light dream with no model call when the cycle was short); shorter or more frequent sleeps only pause. Answers at once; the client waits, then wakes.',
  query: TenantQuerySchema,
  body: MindSleepInputSchema,
  answers: {
    200: { description: 'What the sleep did', schema: MindSleepResponseSchema },
    ...errorAnswers(400, 401, 404, 415),
  },
}

const wakeRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
  method: 'post',
  path: '/api/v1/mind/wake',
  tags: TAGS,
  summary: 'Wake: end the sleep and read the wake message',
  description:
    "The seed's wake message (when, how long, the reflection, the priority, recent observations), logged into the conversation. Not asleep: the same message is rebuilt and nothing changes.",
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The wake message', schema: MindWakeResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const statusRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/status',
  tags: TAGS,
  summary: 'Fatigue, dreams, the next deep sleep, whether it sleeps',
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The status', schema: MindStatusResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const observationsRoute: ApiRoute<undefined, typeof MindObservationsQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/observations',
  tags: TAGS,
  summary: 'The observations file, each line with its dream and source lines',
  query: MindObservationsQuerySchema,
  answers: {
    200: { description: 'observations.md', schema: MindObservationsResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const dreamsRoute: ApiRoute<undefined, typeof MindDreamsQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/dreams',
  tags: TAGS,
  summary: 'The last dreams, oldest first',
  query: MindDreamsQuerySchema,
  answers: {
    200: { description: 'Lines of dreams.jsonl', schema: MindDreamsResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const recallRoute: ApiRoute<undefined, typeof MindRecallQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/recall',
  tags: TAGS,
  summary: 'Search total recall: conversation, dreams, observations, archive, diary',
  query: MindRecallQuerySchema,
  answers: {
    200: {
      description: 'Hits, best first, each at its file and line',
      schema: MindRecallResponseSchema,
    },
    ...errorAnswers(400, 401, 404),
  },
}

const contextRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/context',
  tags: TAGS,
  summary: 'The in-context window: wake message, digest of what was trimmed, recent messages',
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The window', schema: MindContextResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

const toolsRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
  method: 'get',
  path: '/api/v1/mind/tools',
  tags: TAGS,
  summary: "The set_sleep tool to hand the creature's model",
  description:
    "In the Anthropic Messages API shape (for OpenAI, wrap it as a function). Answer a set_sleep call by posting its input to /api/v1/mind/sleep and returning the answer's text.",
  query: TenantQuerySchema,
  answers: {
    200: { description: 'The tools', schema: MindToolsResponseSchema },
    ...errorAnswers(400, 401, 404),
  },
}

/** The mind routes, for /openapi.json. */
export const MIND_ROUTES: AnyApiRoute[] = [
  eventsRoute,
  sleepRoute,
  wakeRoute,
  statusRoute,
  observationsRoute,
  dreamsRoute,
  recallRoute,
  contextRoute,
  toolsRoute,
]

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
