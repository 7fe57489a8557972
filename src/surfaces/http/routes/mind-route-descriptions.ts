/**
 * The mind routes described (seed 004, docs/design/origins.md): paths, inputs and answers as zod
 * schemas, for the validators and /openapi.json. Served by mind-routes.ts.
 */
import type { AnyApiRoute, ApiRoute } from '../api-route.ts'
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

const TAGS = ['mind']

/** POST /api/v1/mind/events. */
export const eventsRoute: ApiRoute<
  undefined,
  typeof TenantQuerySchema,
  typeof MindEventsInputSchema
> = {
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

/** POST /api/v1/mind/sleep. */
export const sleepRoute: ApiRoute<
  undefined,
  typeof TenantQuerySchema,
  typeof MindSleepInputSchema
> = {
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

/** POST /api/v1/mind/wake. */
export const wakeRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
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

/** GET /api/v1/mind/status. */
export const statusRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
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

/** GET /api/v1/mind/observations. */
export const observationsRoute: ApiRoute<undefined, typeof MindObservationsQuerySchema> = {
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

/** GET /api/v1/mind/dreams. */
export const dreamsRoute: ApiRoute<undefined, typeof MindDreamsQuerySchema> = {
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

/** GET /api/v1/mind/recall. */
export const recallRoute: ApiRoute<undefined, typeof MindRecallQuerySchema> = {
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

/** GET /api/v1/mind/context. */
export const contextRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
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

/** GET /api/v1/mind/tools. */
export const toolsRoute: ApiRoute<undefined, typeof TenantQuerySchema> = {
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
