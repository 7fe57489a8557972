/**
 * A tenant's creature over HTTP (seed 004, docs/design/origins.md): conversation events in, sleep
 * and wake, and the creature's memory out. Answers carry the library's shapes, the same JSON
 * `somnus mind --json` prints, so a client can move between the CLI and the API.
 */
import * as z from 'zod'
import { PrioritySchema, UsageSchema } from '../../../engine/core/model-results.ts'
import { ConversationEntrySchema, DreamEntrySchema } from '../../../mind/index.ts'
import { answerComponent, requestComponent } from './api-components.ts'
import { limitParameter, SuccessFields, TenantQuerySchema } from './common-schemas.ts'

/** The most events one request may carry. */
export const MAX_EVENTS_PER_REQUEST = 1000

const MessageEventSchema = z
  .object({
    type: z.literal('message'),
    role: z.enum(['user', 'assistant', 'system']),
    content: z.string().min(1).meta({ description: 'What was said' }),
    name: z.string().min(1).max(200).optional().meta({ description: "A speaker's name" }),
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'When it happened (ISO 8601), for a replayed history; default now' }),
  })
  .strict()

const ActionEventSchema = z
  .object({
    type: z.literal('action'),
    tool: z
      .string()
      .min(1)
      .max(200)
      .meta({ description: 'The tool called', examples: ['bash'] }),
    content: z.string().min(1).meta({ description: 'The call and a short result' }),
    at: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ description: 'When it happened (ISO 8601), for a replayed history; default now' }),
  })
  .strict()

/** One conversation event: a message, or an action (a tool call, counted for fatigue). */
export const MindEventSchema = z.discriminatedUnion('type', [MessageEventSchema, ActionEventSchema])

/** `POST /api/v1/mind/events`: events in the order they happened. */
export const MindEventsInputSchema = requestComponent(
  z
    .object({
      events: z
        .array(MindEventSchema)
        .min(1)
        .max(MAX_EVENTS_PER_REQUEST)
        .meta({ description: `1 to ${MAX_EVENTS_PER_REQUEST} events, oldest first` }),
    })
    .strict(),
  'MindEventsInput',
)

/** `POST /api/v1/mind/sleep`. */
export const MindSleepInputSchema = requestComponent(
  z
    .object({
      seconds: z
        .number()
        .int()
        .meta({
          description:
            'How long to sleep (2-86400 s by default). 30 s or more, 10 min after the last dream, consolidates; anything else only pauses.',
          examples: [300],
        }),
    })
    .strict(),
  'MindSleepInput',
)

const SleepPeriodComponent = answerComponent(
  z.object({
    since: z.string(),
    wakeAt: z.string(),
    seconds: z.number(),
    reason: z.enum(['voluntary', 'fatigue']),
  }),
  'MindSleepPeriod',
)

const DreamComponent = answerComponent(DreamEntrySchema.extend({}), 'MindDream')

/** What a sleep did: consolidated (full, light, failed) or only paused, and why. */
const SleepResultComponent = answerComponent(
  z.object({
    consolidation: z.enum(['full', 'light', 'none', 'failed']),
    reason: z.string(),
    dream: DreamComponent.nullable(),
    deep: z.boolean(),
    sleep: SleepPeriodComponent,
    usage: UsageSchema.extend({}),
  }),
  'MindSleepResult',
)

/** What each event became. */
const EventResultSchema = z.object({
  type: z.enum(['message', 'action']),
  line: z.number().int().meta({ description: 'Its line in conversation.jsonl (1-based)' }),
  actions: z
    .number()
    .int()
    .optional()
    .meta({ description: 'An action: actions since the last dream' }),
  warning: z.string().nullable().optional(),
  forcedSleep: SleepResultComponent.nullable().optional(),
  asleep: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'Set when the creature was asleep: logged and counted, and said so' }),
})

/** `{ success, tenant_id, results, actions, warning, forced_sleep, forced_sleeps }`. */
export const MindEventsResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    results: z.array(EventResultSchema),
    actions: z.number().int().meta({ description: 'Actions since the last dream, after these' }),
    warning: z
      .string()
      .nullable()
      .meta({ description: 'The tiredness warning, the first time this cycle' }),
    forced_sleep: SleepResultComponent.nullable().meta({
      description:
        'The last sleep the fatigue limit forced in this batch (consolidated); wake with POST /wake',
    }),
    forced_sleeps: z.array(SleepResultComponent).meta({
      description: 'Every sleep the fatigue limit forced in this batch, in order',
    }),
  }),
  'MindEventsResponse',
)

/** `{ success, tenant_id, ...sleep, text }`. */
export const MindSleepResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    ...SleepResultComponent.shape,
    text: z.string().meta({ description: "The set_sleep tool call's answer" }),
  }),
  'MindSleepResponse',
)

/** The wake message and what waking did. */
export const MindWakeResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    message: z
      .string()
      .meta({ description: "The seed's wake message: the creature's new context" }),
    sleptSeconds: z.number(),
    cycle: z.number().int(),
    wasAsleep: z.boolean(),
    early: z.boolean(),
  }),
  'MindWakeResponse',
)

/** Fatigue, dreams, the next deep sleep. */
export const MindStatusResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    location: z.string(),
    cycle: z.number().int(),
    actions: z.number().int(),
    messages: z.number().int(),
    fatigue: z.enum(['rested', 'tired', 'exhausted']),
    warning_at: z.number().int(),
    limit: z.number().int(),
    dreams: z.number().int(),
    deep_sleep_in: z.number().int(),
    last_dream_at: z.string().nullable(),
    can_dream_at: z.string().nullable(),
    sleeping: SleepPeriodComponent.nullable(),
    consolidating_since: z.string().nullable(),
  }),
  'MindStatusResponse',
)

/** `?priority=` of the observations. */
export const MindObservationsQuerySchema = TenantQuerySchema.extend({
  priority: PrioritySchema.optional(),
})

/** observations.md as text and as lines with their sources. */
export const MindObservationsResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    text: z.string().meta({ description: 'observations.md as it is' }),
    observations: z.array(
      z.object({
        date: z.string(),
        priority: PrioritySchema,
        time: z.string(),
        text: z.string(),
        dream: z.string().nullable(),
        sources: z.array(z.number().int()),
        line: z.number().int(),
      }),
    ),
  }),
  'MindObservationsResponse',
)

/** `?limit=` of the dreams. */
export const MindDreamsQuerySchema = TenantQuerySchema.extend({ limit: limitParameter(10) })

/** The last dreams, oldest first. */
export const MindDreamsResponseSchema = answerComponent(
  z.object({ ...SuccessFields, dreams: z.array(DreamComponent) }),
  'MindDreamsResponse',
)

/** `?q=&limit=` of recall. */
export const MindRecallQuerySchema = TenantQuerySchema.extend({
  q: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .meta({ description: 'What to look for', examples: ['auth tests'] }),
  limit: limitParameter(10),
})

/** Ranked hits, best first, each naming its file and line. */
export const MindRecallResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    hits: z.array(
      z.object({
        file: z.string(),
        line: z.number().int(),
        score: z.number(),
        text: z.string(),
        t: z.string().optional(),
      }),
    ),
  }),
  'MindRecallResponse',
)

/** The in-context window rebuilt from disk: what the creature's loop hands its model. */
export const MindContextResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    wake: z.string().nullable(),
    digest: z.string().nullable(),
    messages: z.array(z.object({ line: z.number().int(), entry: ConversationEntrySchema })),
  }),
  'MindContextResponse',
)

/** The `set_sleep` tool for the creature's settings, in the Anthropic Messages API shape. */
export const MindToolsResponseSchema = answerComponent(
  z.object({
    ...SuccessFields,
    tools: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        input_schema: z.object({
          type: z.literal('object'),
          properties: z.record(z.string(), z.unknown()),
          required: z.array(z.string()),
        }),
      }),
    ),
  }),
  'MindToolsResponse',
)
