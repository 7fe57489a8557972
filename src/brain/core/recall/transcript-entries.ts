/**
 * What recall indexes of a Claude Code transcript: the person's prompts, the agent's text (the
 * narration between tool calls too: "the migration uses ALTER TABLE ... modify, which SQLite does
 * not support" is a fact) and Claude Code's compaction summaries, cut into pieces a hit can show.
 * Tool calls and tool output are never indexed: they are not anyone's words (principle 10,
 * docs/design/principles.md).
 */

import type { RecallEntry } from '../../../engine/core/recall/recall-entry.ts'
import { recallTerms } from '../../../engine/core/recall/recall-terms.ts'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import { typedByPerson } from '../../../engine/core/transcript/provenance.ts'
import { isRecord } from '../../../engine/core/transcript/transcript-rules.ts'

/** Assistant text shorter than this is an acknowledgement ("Done."), not content. */
const MIN_ASSISTANT_CHARS = 20
/** A piece of a long message is cut near this size, at a paragraph, line or sentence end. */
const PIECE_CHARS = 700

/** One entry per piece of user, assistant or summary text of the transcript at `path`. */
export function transcriptEntries(input: {
  path: string
  kind: string
  text: string
  /** The session the transcript belongs to (its file name without `.jsonl`). */
  session: string
}): RecallEntry[] {
  const entries: RecallEntry[] = []
  for (const line of input.text.split('\n')) {
    if (line.trim() === '') continue
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      continue
    }
    if (!isRecord(record) || typeof record.uuid !== 'string') continue
    const text = spokenText(record)
    if (text === null) continue
    const date = typeof record.timestamp === 'string' ? record.timestamp : null
    const location = `${input.path}#${record.uuid}`
    const pieces = piecesOf(redactSecrets(text))
    pieces.forEach((piece, index) => {
      if (recallTerms(piece).length === 0) return
      entries.push({
        id: pieces.length === 1 ? location : `${location}:${index + 1}`,
        kind: input.kind,
        location,
        text: piece,
        date,
        sources: [input.session, record.uuid as string],
      })
    })
  }
  return entries
}

/** The words of a person, an agent or a compaction summary in `record`, or null for anything else. */
function spokenText(record: Record<string, unknown>): string | null {
  if (record.type !== 'user' && record.type !== 'assistant') return null
  const message = isRecord(record.message) ? record.message : null
  const content = message?.content
  const blocksText = (blocks: unknown[]) =>
    blocks
      .filter((block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
      .map((block) => String((block as { text: string }).text))
      .join('\n')
      .trim()
  if (record.type === 'assistant') {
    if (!Array.isArray(content)) return null
    const text = blocksText(content)
    return text.length > MIN_ASSISTANT_CHARS ? text : null
  }
  if (record.isCompactSummary === true) {
    const text = Array.isArray(content) ? blocksText(content) : String(content ?? '').trim()
    return text === '' ? null : text
  }
  // Only what the person typed; tool output in a user record is never theirs (provenance.ts).
  const typed = typedByPerson(record)
  return typed === null || typed.text.trim() === '' ? null : typed.text.trim()
}

/** `text` cut into pieces of about PIECE_CHARS, at the last paragraph, line or sentence end. */
export function piecesOf(text: string): string[] {
  const pieces: string[] = []
  let rest = text.trim()
  while (rest.length > PIECE_CHARS * 1.5) {
    const window = rest.slice(0, PIECE_CHARS)
    const cut = Math.max(
      window.lastIndexOf('\n\n'),
      window.lastIndexOf('\n'),
      window.lastIndexOf('. '),
    )
    const at = cut > PIECE_CHARS / 3 ? cut + 1 : PIECE_CHARS
    pieces.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  if (rest !== '') pieces.push(rest)
  return pieces
}
