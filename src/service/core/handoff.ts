/**
 * A session handoff (seed 003's `session_handoffs`, docs/design/origins.md): what a session
 * experienced, noticed, learned and is becoming, plus the compression levels consolidation adds.
 * The original fields are never changed by consolidation; levels are added beside them.
 */
import * as z from 'zod'
import { SomnusError } from '../../engine/core/errors.ts'
import { INSTANT_RANGE_MESSAGE, isStorableInstant } from './client-values.ts'

/** The seed's compression levels, in the order a handoff moves through them. */
export const COMPRESSION_LEVELS = ['full', 'summary', 'quick_ref', 'integrated'] as const

/** A compression level. */
export const CompressionLevelSchema = z.enum(COMPRESSION_LEVELS)
/** `full` → `summary` → `quick_ref` → `integrated`. */
export type CompressionLevel = z.infer<typeof CompressionLevelSchema>

/** The seed's free-text fields, in the order they are rendered and summarized. */
export const HANDOFF_TEXT_FIELDS = [
  'experienced',
  'noticed',
  'learned',
  'story',
  'becoming',
  'remember',
] as const

/** One of the free-text fields. */
export type HandoffTextField = (typeof HANDOFF_TEXT_FIELDS)[number]

/** Characters one text field may hold: large enough for a pasted session, small enough to bound a row. */
export const MAX_FIELD_CHARS = 200_000

const text = z.string().max(MAX_FIELD_CHARS).nullish()
const id = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:@/#-]+$/, 'use letters, digits and . : @ / # _ -')

/**
 * One raw turn a handoff was made from (a dialog turn, a transcript message): when a handoff has
 * turns, its summaries are made from them and cite their ids; otherwise from its fields.
 */
export const HandoffTurnSchema = z.object({
  id,
  speaker: z.string().max(200).optional(),
  text: z.string().max(MAX_FIELD_CHARS),
})
/** A raw turn with its id. */
export type HandoffTurn = z.infer<typeof HandoffTurnSchema>

/** What a caller sends to create a handoff (HTTP body, import line, `handoffs push`). */
export const HandoffInputSchema = z.object({
  handoff_id: id.optional(),
  session_id: z.string().max(200).nullish(),
  with_whom: z.string().max(200).nullish(),
  experienced: text,
  noticed: text,
  learned: text,
  story: text,
  becoming: text,
  remember: text,
  significance: z.number().min(0).max(1).optional(),
  tags: z.array(z.string().max(100)).max(100).optional(),
  /** When the session happened (default: now); compression ages are counted from it. */
  created_at: z.iso
    .datetime({ offset: true })
    .refine(isStorableInstant, INSTANT_RANGE_MESSAGE)
    .optional(),
  /** Ids of the raw items this handoff came from (session ids, dialog ids, message uuids). */
  sources: z.array(z.string().max(200)).max(10_000).optional(),
  turns: z.array(HandoffTurnSchema).max(10_000).optional(),
  parent_handoff_id: id.nullish(),
})
/** A handoff as sent by a caller. */
export type HandoffInput = z.infer<typeof HandoffInputSchema>

/** A stored handoff with every level consolidation added. */
export const HandoffSchema = z.object({
  handoff_id: z.string(),
  tenant_id: z.string(),
  session_id: z.string().nullable(),
  with_whom: z.string().nullable(),
  experienced: z.string().nullable(),
  noticed: z.string().nullable(),
  learned: z.string().nullable(),
  story: z.string().nullable(),
  becoming: z.string().nullable(),
  remember: z.string().nullable(),
  significance: z.number(),
  tags: z.array(z.string()),
  created_at: z.string(),
  sources: z.array(z.string()),
  turns: z.array(HandoffTurnSchema).nullable(),
  compression_level: CompressionLevelSchema,
  /** ~500-token summary; null until the handoff is 30 days old. */
  summary: z.string().nullable(),
  /** Unit ids the summary kept (turn ids, or `<handoff_id>#<field>`). */
  summary_sources: z.array(z.string()),
  /** ~100-token quick reference; null until the handoff is 90 days old. */
  quick_ref: z.string().nullable(),
  quick_ref_sources: z.array(z.string()),
  /** The principle this handoff's "becoming" statement was consolidated into. */
  integrated_into: z.string().nullable(),
  consolidated_at: z.string().nullable(),
  parent_handoff_id: z.string().nullable(),
  /** Tokens of the full text, of the summary and of the quick ref, counted by `engine/core/tokens.ts`. */
  full_tokens: z.number().int(),
  summary_tokens: z.number().int().nullable(),
  quick_ref_tokens: z.number().int().nullable(),
})
/** A stored handoff. */
export type Handoff = z.infer<typeof HandoffSchema>

/** Parses `value` as a handoff; the error names the field and what is wrong. */
export function parseHandoffInput(value: unknown, where = 'handoff'): HandoffInput {
  const parsed = HandoffInputSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new SomnusError(
    'INVALID_INPUT',
    `${where}: field ${issue?.path.join('.') || '(root)'} is invalid: ${issue?.message ?? 'bad value'}.`,
  )
}
