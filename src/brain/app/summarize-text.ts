/**
 * `somnus summarize`: any text, cut into line-addressed units, summarized within a token budget
 * by the chosen model, with the lines it kept. Budget and ratio are checked here so every surface
 * gets the same errors.
 */
import { SomnusError } from '../../engine/core/errors.ts'
import { countTokens } from '../../engine/core/tokens.ts'
import type { LanguageModel, Unit, Usage } from '../../engine/ports/language-model.ts'

/** What to summarize and how small: exactly one of `budget` (tokens) or `ratio` (0 < r ≤ 1). */
export interface SummarizeTextRequest {
  text: string
  budget?: number | undefined
  ratio?: number | undefined
  model: LanguageModel
  /** Cancels the model call (it rejects with ABORTED). */
  signal?: AbortSignal | undefined
}

/** A source unit kept in the summary: its id, first line number (1-based) and full text. */
export interface SummarySource {
  id: string
  line: number
  text: string
}

/** The summary and its measurements (field names as `--json` prints them). */
export interface SummarizeTextResult {
  summary: string
  model: string
  tokens_before: number
  tokens_after: number
  budget: number
  sources: SummarySource[]
  /** Tokens the model call consumed, as the provider reported them (zero for extractive). */
  usage: Usage
}

/** A unit of text with the line it starts on. */
export interface LineUnit extends Unit {
  line: number
}

const STRUCTURED_LINE =
  /^\s*(?:[-*+•>]\s|\d+[.)]\s|#{1,6}\s|\[?\d{1,2}:\d{2}|[\p{Lu}][\p{L}'-]*(?: [\p{Lu}][\p{L}'-]*){0,2}:\s|(?:user|assistant|human|ai|system):\s)/iu
/**
 * `Name: ` at the start of a line; the text is what follows it, taken by position (a 10 MB line
 * caught in a capture group overflows the regular expression's backtracking stack).
 */
const SPEAKER_PREFIX =
  /^([\p{Lu}][\p{L}'-]*(?: [\p{Lu}][\p{L}'-]*){0,2}|user|assistant|human|ai):\s+(?=\S)/u

/**
 * Cuts text into units with ids `L<line>`: a paragraph of wrapped prose is one unit; a paragraph
 * of list items, headings or `Name: text` lines is one unit per line (the name becomes the speaker).
 */
export function textToUnits(text: string): LineUnit[] {
  const lines = text.split(/\r?\n/)
  const units: LineUnit[] = []
  let paragraph: { line: number; text: string }[] = []
  const flush = () => {
    const structured =
      paragraph.length === 1 || paragraph.slice(1).some((entry) => STRUCTURED_LINE.test(entry.text))
    const pieces = structured
      ? paragraph
      : [
          {
            line: paragraph[0]?.line ?? 1,
            text: paragraph.map((entry) => entry.text.trim()).join(' '),
          },
        ]
    for (const piece of pieces) {
      const text = piece.text.trim()
      const speaker = SPEAKER_PREFIX.exec(text)
      const unit: LineUnit = { id: `L${piece.line}`, line: piece.line, text }
      if (speaker?.[1]) {
        Object.assign(unit, { speaker: speaker[1], text: text.slice(speaker[0].length) })
      }
      if (paragraph.length > 0) units.push(unit)
    }
    paragraph = []
  }
  lines.forEach((line, index) => {
    if (line.trim() === '') flush()
    else paragraph.push({ line: index + 1, text: line })
  })
  flush()
  return units
}

/** Checks that exactly one of budget (whole tokens ≥ 0) and ratio (0 < r ≤ 1) is given: USAGE otherwise. */
export function checkBudgetOptions(budget?: number, ratio?: number): void {
  if ((budget === undefined) === (ratio === undefined)) {
    throw new SomnusError(
      'USAGE',
      'Give exactly one of --budget TOKENS or --ratio R (for example --ratio 0.2).',
    )
  }
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 0)) {
    throw new SomnusError('USAGE', `--budget must be a whole number of tokens ≥ 0 (got ${budget}).`)
  }
  if (ratio !== undefined && !(ratio > 0 && ratio <= 1)) {
    throw new SomnusError('USAGE', `--ratio must be greater than 0 and at most 1 (got ${ratio}).`)
  }
}

/** The token budget a request asks for: `budget`, or `ratio` of the input's tokens rounded down. */
export function resolveBudget(tokensBefore: number, budget?: number, ratio?: number): number {
  checkBudgetOptions(budget, ratio)
  return budget ?? Math.floor(tokensBefore * (ratio ?? 1))
}

/** Summarizes `text` with `model` within the budget and reports what it kept. */
export async function summarizeText(request: SummarizeTextRequest): Promise<SummarizeTextResult> {
  const tokensBefore = countTokens(request.text)
  const budget = resolveBudget(tokensBefore, request.budget, request.ratio)
  const units = textToUnits(request.text)
  if (units.length === 0) {
    throw new SomnusError(
      'INVALID_INPUT',
      'Nothing to summarize: the input is empty. Pass a file with text, or pipe text on stdin.',
    )
  }
  const call = await request.model.summarize({
    units: units.map(({ line: _line, ...unit }) => unit),
    budgetTokens: budget,
    signal: request.signal,
  })
  const byId = new Map(units.map((unit) => [unit.id, unit]))
  const sources = call.value.sources.flatMap((id) => {
    const unit = byId.get(id)
    if (!unit) return []
    return [
      { id, line: unit.line, text: unit.speaker ? `${unit.speaker}: ${unit.text}` : unit.text },
    ]
  })
  return {
    summary: call.value.text,
    model: call.model,
    usage: call.usage,
    tokens_before: tokensBefore,
    tokens_after: countTokens(call.value.text),
    budget,
    sources,
  }
}
