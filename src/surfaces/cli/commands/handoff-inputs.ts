/** Reading handoffs from an import file, and one handoff as a line of `handoffs list`. */

import { SomnusError } from '../../../engine/core/errors.ts'
import {
  type Handoff,
  type HandoffInput,
  levelTokens,
  locomoHandoffs,
  parseHandoffInput,
} from '../../../service/service-values.ts'

/** The handoffs in `text`, read as `format` (`json`, `jsonl` or `locomo`). */
export function parseHandoffInputs(text: string, format: string, name: string): HandoffInput[] {
  if (format === 'jsonl') {
    return text
      .split('\n')
      .map((line, index) => ({ line: line.trim(), number: index + 1 }))
      .filter(({ line }) => line !== '')
      .map(({ line, number }) =>
        parseHandoffInput(parseJson(line, `line ${number}`), `line ${number}`),
      )
  }
  const value = parseJson(text, name)
  if (format === 'locomo') return locomoHandoffs(value, name)
  const items = Array.isArray(value) ? value : [value]
  return items.map((item, index) =>
    parseHandoffInput(item, Array.isArray(value) ? `item ${index}` : 'handoff'),
  )
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${where} is not valid JSON (${(error as Error).message}); use --format jsonl for one handoff per line.`,
    )
  }
}

/** `id  2026-01-05  summary  480/1,912  text…` */
export function handoffLine(handoff: Handoff): string {
  const active = levelTokens(handoff, handoff.compression_level)
  const text =
    (handoff.compression_level === 'full' ? null : (handoff.quick_ref ?? handoff.summary)) ??
    handoff.experienced ??
    handoff.story ??
    handoff.learned ??
    handoff.turns?.map((turn) => turn.text).join(' ') ??
    ''
  const line = text.replace(/\s+/g, ' ').trim()
  return [
    handoff.handoff_id,
    handoff.created_at.slice(0, 10),
    handoff.compression_level.padEnd(10),
    `${active}/${handoff.full_tokens}`.padStart(11),
    line.length > 80 ? `${line.slice(0, 79)}…` : line,
  ].join('  ')
}
