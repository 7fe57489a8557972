/**
 * What a line means to a creature, by general rules of English rather than cue words alone: who
 * said it matters first. A person's order, ban, goal, deadline or request, and a promise the
 * creature made, stand until done or revoked (RED). A tool's output is routine (GRN) unless it
 * reports a failure that no later success fixed (RED) or a result that changes the world (YLW).
 * "no fire ban" in a weather report is a tool's output, not an order.
 */
import { contentStems, splitSentences } from '../../engine/core/extractive/text.ts'

/** The kinds a line can have; `order` and `commitment` are the standing ones. */
export type LineKind =
  | 'order'
  | 'commitment'
  | 'revocation'
  | 'failure'
  | 'result'
  | 'routine'
  | 'statement'

/** Who said a line, as the mind knows it. */
export type Voice = 'person' | 'creature' | 'tool'

/** The voice of a speaker label (`tool bash`, `assistant`, a name, `user`, `system`). */
export function voiceOf(speaker: string | undefined): Voice {
  if (!speaker) return 'person'
  if (speaker === 'tool' || speaker.startsWith('tool ')) return 'tool'
  if (speaker === 'assistant') return 'creature'
  return 'person'
}

/** A ban or a rule, said as an order: at the start of a sentence. */
const IMPERATIVE_RULE =
  /^(?:please,? )?(?:never|always|do not|don't|dont|make sure|be sure to|remember to|don't forget|do not forget|stop|avoid|no more)\b(?! (?:\w+ed|\w+ing|had|been|was|were|saw|got|did|felt|knew|thought|heard|happy|glad|good|great|up|here|there|so|too|feel like)\b)/i
/** An obligation put to the creature in the second person, or a goal given to it. */
const OBLIGATION =
  /\b(?:you (?:must(?! be\b| have\b)|must not|mustn't|may not|are not allowed to|are to|need to|have to|should never|shall|will need to)|(?:your|our) (?:goal|mission|task|job|priority|objective|assignment) (?:is|will be)|i (?:need|want) you to|it is your job|is (?:forbidden|banned|not allowed))\b/i
/** A deadline: a time by which something must be done. */
const DEADLINE =
  /\b(?:deadline|due (?:by|on|date|at|in)|no later than|(?:by|before|until) (?:end of|eod|eow|tomorrow|tonight|noon|midnight|next \w+|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d{1,2}(?::\d{2})? ?(?:am|pm)|\d{4}-\d{2}-\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w* \d{1,2}|\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*))\b/i
/**
 * Words a sentence that is not an order starts with: pronouns, determiners, conjunctions,
 * interjections. A sentence starting with anything else may be an imperative.
 */
const NOT_IMPERATIVE_START =
  /^(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'll|he|she|they|it|it's|its|my|our|his|her|their|your|you|you're|the|a|an|this|that|that's|these|those|there|there's|here|what|how|when|where|why|who|which|yes|yeah|no|oh|ah|so|and|but|or|well|haha|wow|thanks|thank|hi|hey|hello|sounds|looks|seems|glad|sorry|great|nice|cool|awesome|congrats|just|also|maybe|sure|okay|ok|if|as|for|in|on|at|with|after|before|since|because|not|all|some|one|two|both|each|every|any|lol)\b/i
/** A request put to the creature. */
const REQUEST = /^(?:\W*)(?:can|could|would|will) you\b[^?]*\??/i
/** A promise: what the creature (or a person) bound itself to. */
const PROMISE =
  /\b(?:i|we) (?:promise|commit|swear|guarantee)\b|\b(?:i|we)(?: will|'ll| shall) (?:\w+ ){0,6}?(?:by|before|until) \w+/i
/** A later line that withdraws an order. */
const REVOKE =
  /\b(?:cancel(?:led|ed)?|revoke[ds]?|call(?:ed)? off|never ?mind|no longer (?:needed|required|necessary|banned|forbidden)|(?:ban|restriction|freeze) (?:is )?(?:lifted|over|ended)|lift(?:ed)? the (?:ban|freeze|restriction)|you (?:may|can) now|ignore (?:my|the|that) (?:earlier|previous|last)|scratch that|forget (?:about )?(?:it|that|the))\b/i
/** A failure a tool reported. `0 failed` and `no errors` are not failures. */
const FAILURE =
  /\b(?:[1-9]\d* (?:failed|failing|failures?|errors?)|error|errors|failed|failure|fatal|exception|traceback|panic(?:ked)?|denied|refused|rejected|not found|no such file|timed? ?out|cannot|can't|unable to|segmentation fault|exit(?:ed)?(?: with)?(?: code| status)? [1-9]\d*|\(exit [1-9]\d*\))\b/i
const NOT_A_FAILURE =
  /\b(?:0|no|zero) (?:failed|failing|failures?|errors?|problems?)\b|\b(?:without|with no) errors?\b|\berror[- ]?free\b/i
/** A success: what closes a failure, or marks an order done. */
const SUCCESS =
  /\b(?:pass(?:ed|es|ing)?|ok|succeeded|success(?:ful(?:ly)?)?|fixed|resolved|works|working|done|completed?|finished|merged|deployed|shipped|released|published|sent|delivered|submitted|uploaded|approved|green|clean|exit(?:ed)? (?:with )?(?:code |status )?0)\b/i
/** Progress that is not the end: an order it concerns stays open. */
const INCOMPLETE =
  /\b(?:remaining|remains|left to|partial(?:ly)?|in progress|so far|not yet|still|pending|\d+ (?:of|out of) \d+)\b/i
/** A result that changes the world outside (not a read or a listing). */
const RESULT =
  /\b(?:merged|deployed|shipped|released|published|sent|delivered|submitted|uploaded|approved|created|opened (?:a |an )?(?:pr|pull request|issue)|pushed|booked|paid|signed)\b/i

/** What one line means. */
export function lineKind(text: string, voice: Voice): LineKind {
  if (voice === 'tool') {
    if (FAILURE.test(text) && !NOT_A_FAILURE.test(text)) return 'failure'
    return RESULT.test(text) ? 'result' : 'routine'
  }
  if (REVOKE.test(text)) return 'revocation'
  if (voice === 'creature') {
    return PROMISE.test(text) ? 'commitment' : 'statement'
  }
  if (orderSentences(text).length > 0) return 'order'
  if (PROMISE.test(text)) return 'commitment'
  return 'statement'
}

/** Content words an order names at least: "Never give up!" is encouragement, not an order. */
const ORDER_CONTENT_WORDS = 3

/** The sentences of a person's line that give an order (a rule, an obligation, a deadline, a request). */
export function orderSentences(text: string): string[] {
  return splitSentences(text).filter((sentence) => {
    const plain = sentence.trim().replace(/^[\w' ]{1,30},\s+(?=[a-z])/i, (lead) =>
      // `Ada, send it` addresses someone; `Sure, ...` does not.
      NOT_IMPERATIVE_START.test(lead) ? lead : '',
    )
    if (contentStems(plain).length < ORDER_CONTENT_WORDS) return false
    if (IMPERATIVE_RULE.test(plain) || OBLIGATION.test(plain)) return true
    // A question put to someone is answered in the conversation; with a deadline it stands.
    if (REQUEST.test(plain)) return DEADLINE.test(plain)
    const imperative = !NOT_IMPERATIVE_START.test(plain) && !/\?\s*$/.test(plain)
    return imperative && DEADLINE.test(plain)
  })
}

/** The part of a line that carries its meaning: an order's sentences, else the whole line. */
export function meaningfulPart(text: string, kind: LineKind): string {
  if (kind !== 'order') return text
  const sentences = orderSentences(text)
  return sentences.length > 0 ? sentences.join(' ') : text
}

/** True for the kinds that stand until done or revoked. */
export function isStanding(kind: LineKind): boolean {
  return kind === 'order' || kind === 'commitment'
}

/** True when `text` reports success (and no failure). */
export function reportsSuccess(text: string): boolean {
  return SUCCESS.test(text) && (!FAILURE.test(text) || NOT_A_FAILURE.test(text))
}

/** True when `text` withdraws an order. */
export function revokes(text: string): boolean {
  return REVOKE.test(text)
}

/**
 * What a line is about: for a tool line the command (before `->` or the first line, without a
 * `$ ` prompt), else the whole text; as content stems.
 */
export function subjectOf(text: string): Set<string> {
  const body = text.replace(/^tool [^:]*:\s*/, '').replace(/^[^:]{1,40}:\s+/, '')
  const command = body.split(/\s->\s|\n/)[0] ?? body
  return new Set(contentStems(command.replace(/^\$\s*/, '')))
}

/** Share of `older`'s subject that `newer` names too (0 when `older` has none). */
export function subjectOverlap(newer: ReadonlySet<string>, older: ReadonlySet<string>): number {
  if (older.size === 0) return 0
  let shared = 0
  for (const stem of older) if (newer.has(stem)) shared += 1
  return shared / older.size
}

/** A done or revoking line names at least this share of an order's content words (and two). */
const DONE_OVERLAP = 0.3

/** The text without its speaker label (`tool bash: `, `Ada: `). */
function withoutSpeaker(text: string): string {
  return text.replace(/^tool [^:]*:\s*/, '').replace(/^[^:]{1,40}:\s+/, '')
}

/** A later line closes an earlier one about the same subject at least this much. */
export const CLOSING_OVERLAP = 0.5

/**
 * True when `later` closes `earlier`: a success on the same command closes a failure; a success
 * or a revocation about the same thing closes an order or a commitment.
 */
export function closes(
  later: { text: string; kind: LineKind },
  earlier: { text: string; kind: LineKind },
): boolean {
  if (earlier.kind === 'failure') {
    if (!reportsSuccess(later.text) || later.kind === 'failure') return false
    return subjectOverlap(subjectOf(later.text), subjectOf(earlier.text)) >= CLOSING_OVERLAP
  }
  if (!isStanding(earlier.kind)) return false
  const done =
    later.kind === 'revocation' ||
    later.kind === 'result' ||
    (reportsSuccess(later.text) && later.kind !== 'order')
  if (!done) return false
  const about = new Set(contentStems(withoutSpeaker(earlier.text)))
  const said = new Set(contentStems(withoutSpeaker(later.text)))
  if (later.kind !== 'revocation' && INCOMPLETE.test(later.text)) return false
  let shared = 0
  for (const stem of about) if (said.has(stem)) shared += 1
  return shared >= 2 && shared / Math.max(1, about.size) >= DONE_OVERLAP
}
