/**
 * LoCoMo conversations as handoffs (`somnus handoffs import --format locomo FILE`): each session
 * becomes one handoff dated by the session's date, its dialog turns kept as the handoff's turns
 * (so summaries cite dialog ids such as `D3:7`) and listed as its sources. LoCoMo's own summaries,
 * observations and questions are not imported: they are what the benchmark compares against.
 */
import * as z from 'zod'
import { SomnusError } from '../../engine/core/errors.ts'
import { parseTimestamp } from '../../engine/core/extractive/timestamps.ts'
import type { HandoffInput } from './handoff.ts'

const TurnSchema = z.object({
  speaker: z.string(),
  dia_id: z.string().min(1),
  text: z.string(),
  blip_caption: z.string().optional(),
})

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

/** `1:56 pm on 8 May, 2023` → `2023-05-08T13:56:00.000Z` (taken as UTC: LoCoMo gives no zone). */
export function locomoDate(text: string): string | null {
  const { date, time } = parseTimestamp(text)
  const match = date ? /^(\d{1,2}) (\w+) (\d{4})$/.exec(date) : null
  if (!match) return null
  const month = MONTHS.indexOf((match[2] ?? '').slice(0, 3).toLowerCase())
  if (month < 0) return null
  const [hours, minutes] = (time ?? '00:00').split(':').map(Number)
  return new Date(
    Date.UTC(Number(match[3]), month, Number(match[1]), hours ?? 0, minutes ?? 0),
  ).toISOString()
}

/** The handoffs of one LoCoMo conversation file (`conversation` names it, e.g. `26`). */
export function locomoHandoffs(data: unknown, conversation: string): HandoffInput[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SomnusError(
      'INVALID_INPUT',
      'A LoCoMo file is one JSON object with session_<n> and session_<n>_date_time keys.',
    )
  }
  const record = data as Record<string, unknown>
  const safeName = conversation.replace(/[^\w.-]/g, '_')
  const speakers = [record.speaker_a, record.speaker_b].filter(
    (name): name is string => typeof name === 'string',
  )
  const handoffs: HandoffInput[] = []
  const numbers = Object.keys(record)
    .map((key) => /^session_(\d+)$/.exec(key)?.[1])
    .filter((number): number is string => number !== undefined)
    .sort((left, right) => Number(left) - Number(right))
  for (const number of numbers) {
    const turns = z.array(TurnSchema).safeParse(record[`session_${number}`])
    if (!turns.success) {
      throw new SomnusError(
        'INVALID_INPUT',
        `LoCoMo session_${number}: ${turns.error.issues[0]?.message ?? 'invalid'} at ${turns.error.issues[0]?.path.join('.')}; each turn needs speaker, dia_id and text.`,
      )
    }
    const dateText = String(record[`session_${number}_date_time`] ?? '')
    const createdAt = locomoDate(dateText)
    if (createdAt === null) {
      throw new SomnusError(
        'INVALID_INPUT',
        `LoCoMo session_${number}_date_time "${dateText}" is not a date like "1:56 pm on 8 May, 2023".`,
      )
    }
    handoffs.push({
      handoff_id: `locomo-${safeName}-s${number}`,
      session_id: `locomo-${safeName}/session_${number}`,
      with_whom: speakers.join(' & ') || null,
      created_at: createdAt,
      tags: ['locomo', `conversation-${safeName}`],
      sources: turns.data.map((turn) => turn.dia_id),
      turns: turns.data.map((turn) => ({
        id: turn.dia_id,
        speaker: turn.speaker,
        text: turn.blip_caption ? `${turn.text} [image: ${turn.blip_caption}]` : turn.text,
      })),
    })
  }
  if (handoffs.length === 0) {
    throw new SomnusError(
      'INVALID_INPUT',
      'No session_<n> keys found: is this a LoCoMo conversation file (one conversation, flat form)?',
    )
  }
  return handoffs
}
