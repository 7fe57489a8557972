/**
 * A digest decision taken apart into what was chosen, why, and over what. The digest keeps
 * sentences that commit to a choice; a pattern also needs the reason or the rejected option, so a
 * choice with neither, an agent still weighing its options, or a report of work done is dropped.
 */

/** A decision: the choice, its reason and the option it was chosen over ('' when not stated). */
export interface DecisionParts {
  choice: string
  reason: string
  over: string
}

/** The agent still weighing, not yet choosing. */
const UNDECIDED =
  /\b(?:not sure|wondering|whether to|should I|could also|let me think|debating|torn between)\b/i
/** A report of what got done: an accomplishment, not a decision. */
const ACCOMPLISHMENT =
  /\b(?:now (?:gets|has|have|works|supports|shows|renders|passes)|all (?:\d+ )?(?:tasks|subtasks|tests|checks) (?:pass|passed|completed|done)|(?:is|are) (?:now )?(?:complete|done|finished))\b/i
/** The clause that commits: "…, so I'll do Y", "— I should just do Y", "I'll go with Y". */
const COMMITMENT =
  /(?:^|[,;:—–]\s*|\s[-—–]+\s*|\bso\s+)(?:I|we)(?:'ll| will| should(?: just)?| decided to| chose to|'m going to| am going to)\s+(?:go with\s+|just\s+)?(.{12,})$/i
/** "do Y because X": the reason after the choice. */
const REASON_AFTER =
  /^(.{12,}?)[,;]?\s+(because|since|so that|to avoid|to keep|to preserve|in order to|without breaking)\s+(.{8,})$/i
/** "Y instead of X", "prefer Y over X", "Y, not X": the option not taken (up to the next clause). */
const OVER = /(?:\b(?:instead of|rather than|over)|,\s+not)\s+([^,;()]{3,}?)(?=[,;)]|$)/i
/** Narration around the reason that says nothing about it. */
const REASON_NOISE =
  /^(?:I'm reconsidering\s*[—–-]*\s*|(?:since|because|as)\s+)+|[,;:—–\s]+(?:so)?\s*$/gi

/**
 * A choice about "those" or "it" that names nothing in code: it cannot be read outside the
 * session ("Implement those as specified rather than deferring them").
 */
const UNNAMED = /^(?=[^`]*$)\w+\s+(?:those|these|them|it|this|that)\b/i

/** An acknowledgement opening the sentence ("Understood: I will…"): no reason. */
const ACKNOWLEDGEMENT =
  /^(?:understood|sure|ok(?:ay)?|got it|right|great|perfect|good)\b[,.:!]?\s*/i

/** The parts of decision `text`, or null when it states no reason and no alternative. */
export function decisionPartsOf(text: string): DecisionParts | null {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '')
  if (flat.endsWith('?') || UNDECIDED.test(flat) || ACCOMPLISHMENT.test(flat)) return null
  let choice = flat
  let reason = ''
  const committed = COMMITMENT.exec(flat)
  if (committed?.[1]) {
    choice = committed[1]
    reason = flat.slice(0, committed.index)
  }
  const after = REASON_AFTER.exec(choice)
  if (after?.[1] && after[2] && after[3]) {
    choice = after[1]
    reason = [reason, `${after[2]} ${after[3]}`].filter((part) => part.trim() !== '').join('; ')
  }
  reason = reason
    .split('; ')
    .map((part) => part.replace(ACKNOWLEDGEMENT, '').replace(REASON_NOISE, '').trim())
    .filter((part) => part.length >= 8)
    .join('; ')
  const over = OVER.exec(choice)?.[1]?.trim() ?? ''
  const alternative = /^(?:just|only|yet|a later)\b/i.test(over) ? '' : over
  if (reason === '' && alternative === '') return null
  const cleaned = capitalised(choice.trim())
  if (cleaned.length < 12 || UNNAMED.test(cleaned)) return null
  return { choice: cleaned, reason, over: alternative }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
