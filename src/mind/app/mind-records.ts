/**
 * The creature's files read as outside input (principle 8, docs/design/principles.md): the state
 * and every JSONL line pass a schema. A line that fails it (a torn last line, a hand edit) is
 * skipped, never trusted.
 */
import * as z from 'zod'
import { SomnusError } from '../../engine/core/errors.ts'
import {
  type ConversationEntry,
  type DreamEntry,
  initialMindState,
  type MindState,
} from '../core/mind-state.ts'

const PrioritySchema = z.enum(['RED', 'YLW', 'GRN'])
const SleepPeriodSchema = z.object({
  since: z.string(),
  wakeAt: z.string(),
  seconds: z.number(),
  reason: z.enum(['voluntary', 'fatigue']),
})

/** A dream line. */
export const DreamEntrySchema = z.object({
  id: z.string().min(1),
  t: z.string(),
  actions: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  kind: z.enum(['full', 'light', 'failed']),
  reflection: z.string(),
  priority: z.string(),
  observations: z.number().int().nonnegative(),
  deep: z.boolean(),
  lines: z.tuple([z.number().int(), z.number().int()]).nullable(),
  model: z.string(),
  detail: z.array(
    z.object({
      priority: PrioritySchema,
      date: z.string().optional(),
      time: z.string(),
      text: z.string(),
      sources: z.array(z.number().int()),
    }),
  ),
})

const MindStateSchema = z.object({
  version: z.literal(1),
  cycle: z.number().int().positive(),
  actionsSinceDream: z.number().int().nonnegative(),
  messagesSinceDream: z.number().int().nonnegative(),
  warned: z.boolean(),
  dreamCount: z.number().int().nonnegative(),
  lastDreamAt: z.string().nullable(),
  consolidatedLines: z.number().int().nonnegative(),
  sleeping: SleepPeriodSchema.nullable(),
  lastSleep: SleepPeriodSchema.nullable(),
  pending: z
    .object({
      id: z.string(),
      startedAt: z.string(),
      throughLine: z.number().int().nonnegative(),
      actions: z.number().int().nonnegative(),
      messages: z.number().int().nonnegative().default(0),
      commit: z
        .object({
          dream: DreamEntrySchema,
          observationsBlock: z.string(),
          sleep: SleepPeriodSchema,
        })
        .optional(),
    })
    .nullable(),
  loggedLines: z.number().int().nonnegative().optional(),
})

/** A conversation line. */
export const ConversationEntrySchema = z.object({
  t: z.string(),
  role: z.enum(['user', 'assistant', 'tool', 'system']),
  content: z.string(),
  name: z.string().optional(),
  tool: z.string().optional(),
  kind: z.enum(['warning', 'wake', 'digest']).optional(),
})

/** The state in the text, a new creature's for null; a damaged file is STATE_CORRUPT. */
export function parseMindState(text: string | null, location: string): MindState {
  if (text === null) return initialMindState()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  const parsed = MindStateSchema.safeParse(json)
  if (!parsed.success) {
    throw new SomnusError(
      'STATE_CORRUPT',
      `${location}/mind-state.json is damaged (${parsed.error.issues[0]?.message ?? 'not JSON'}). The logs are intact: move the file aside and the counters start over.`,
    )
  }
  return parsed.data as MindState
}

/** Every well-formed line of a log, with its 1-based line number. */
export function parseLines<T>(
  lines: readonly string[],
  schema: z.ZodType<T>,
): { line: number; entry: T }[] {
  const out: { line: number; entry: T }[] = []
  lines.forEach((text, index) => {
    if (text.trim() === '') return
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return
    }
    const parsed = schema.safeParse(json)
    if (parsed.success) out.push({ line: index + 1, entry: parsed.data })
  })
  return out
}

/** Conversation lines. */
export function conversationEntries(
  lines: readonly string[],
): { line: number; entry: ConversationEntry }[] {
  return parseLines(lines, ConversationEntrySchema) as { line: number; entry: ConversationEntry }[]
}

/** Dream entries. */
export function dreamEntries(lines: readonly string[]): DreamEntry[] {
  return parseLines(lines, DreamEntrySchema).map((item) => item.entry as DreamEntry)
}
