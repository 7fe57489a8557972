/**
 * LoCoMo conversations as the retention benchmark reads them: sessions as units (turn id, speaker,
 * text, the session's date), LoCoMo's own summaries and observations, and the answerable
 * questions with their evidence turns. Format: peers-and-benchmarks.md section 9.2.
 */
import { readFileSync } from 'node:fs'
import { STOP_WORDS } from '../src/engine/core/extractive/stop-words.ts'
import { renderUnits } from '../src/engine/core/extractive/summarize.ts'
import { stem } from '../src/engine/core/extractive/text.ts'
import { countTokens } from '../src/engine/core/tokens.ts'
import type { Unit } from '../src/engine/ports/language-model.ts'

/** One session: its turns as units, the raw rendering and its tokens, LoCoMo's extras. */
export interface Session {
  key: string
  units: Unit[]
  raw: string
  tokens: number
  summary: string
  /** LoCoMo's observations in file order, each with the turn it came from. */
  observations: { text: string; source: string }[]
}

/** An answerable question (category 1-4): normalized answer tokens and evidence turns. */
export interface Question {
  category: number
  answerTokens: Set<string>
  evidence: string[]
  /** Keys of the sessions holding the evidence. */
  sessions: string[]
}

/**
 * LoCoMo's `normalize_answer` (lowercase, ASCII punctuation removed, articles and "and" removed),
 * then stop words removed and Porter stems, as its F1 scorer stems.
 */
export function normalizedTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~’]/g, '')
    .replace(/\b(a|an|the|and)\b/g, ' ')
    .split(/\s+/)
    .filter((word) => word.length > 0 && !STOP_WORDS.has(word))
    .map((word) => stem(word))
}

/** `26/3` for turn `D3:7` of conversation 26. */
function sessionKey(conversation: string, turnId: string): string {
  return `${conversation}/${turnId.slice(1, turnId.indexOf(':'))}`
}

/** Reads one `<id>.json` conversation file. */
export function loadConversation(path: string): { sessions: Session[]; questions: Question[] } {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
  const conversation = path.replace(/^.*\//, '').replace(/\.json$/, '')
  const sessions: Session[] = []
  for (const [field, turns] of Object.entries(data)) {
    const number = /^session_(\d+)$/.exec(field)?.[1]
    if (number === undefined || !Array.isArray(turns)) continue
    const timestamp = String(data[`${field}_date_time`] ?? '')
    const units: Unit[] = turns.map((turn: Record<string, unknown>) => ({
      id: String(turn.dia_id),
      speaker: String(turn.speaker),
      text: turn.blip_caption ? `${turn.text} [image: ${turn.blip_caption}]` : String(turn.text),
      timestamp,
    }))
    const raw = renderUnits(units)
    const observed = (data[`${field}_observation`] ?? {}) as Record<string, [string, string][]>
    sessions.push({
      key: `${conversation}/${number}`,
      units,
      raw,
      tokens: countTokens(raw),
      summary: String(data[`${field}_summary`] ?? ''),
      observations: Object.values(observed).flatMap((facts) =>
        facts.map(([text, source]) => ({ text, source: String(source) })),
      ),
    })
  }
  const turnIds = new Set(sessions.flatMap((session) => session.units.map((unit) => unit.id)))
  const questions: Question[] = []
  for (const qa of data.qa as Record<string, unknown>[]) {
    const category = Number(qa.category)
    if (category < 1 || category > 4 || qa.answer === undefined) continue
    // Evidence strings are sometimes malformed ("D8:6; D9:17"): take every well-formed id that exists.
    const cited = (qa.evidence as unknown[]).flatMap(
      (item) => String(item).match(/D\d+:\d+/g) ?? [],
    )
    const evidence = [...new Set(cited)].filter((id) => turnIds.has(id))
    questions.push({
      category,
      answerTokens: new Set(normalizedTokens(String(qa.answer))),
      evidence,
      sessions: [...new Set(evidence.map((id) => sessionKey(conversation, id)))],
    })
  }
  return { sessions, questions }
}
