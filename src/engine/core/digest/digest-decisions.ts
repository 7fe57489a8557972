/**
 * Decisions: choices between options, with the reason when the session gave one ("store X, not Y,
 * because…", "X over Y", "go with X since…", "the spec forbids Y, so…"). An explanation of why
 * something failed, or the agent narrating its next step, is not a decision: those go to gotchas
 * or nowhere. Few real decisions beat many sentences that merely contain "because".
 */
import { leadingSentences, oneLine, sentencesOf } from './digest-text.ts'

/** A candidate decision: its sentence, where it came from, and how strongly it reads as a choice. */
export interface DecisionCandidate {
  text: string
  uuid: string
  score: number
}

/** Words that say a choice was made, whatever the sentence around them. */
const CHOICE =
  /\b(?:in favou?r of|decided|decide to|chose|chosen|opted|opt for|go(?:ing)? with|went with|settled on|switch(?:ed)? to|simpler than|better than|cleaner than|safer than|trade-?off)\b/i

/** "X instead of Y", "X over Y", "X, not Y": a choice only when the sentence commits to doing X. */
const ALTERNATIVE = /\b(?:instead of|rather than|over)\b|,\s+not\b/i

/** A commitment or an act of choosing (not a description of how things are). */
const COMMITS =
  /\b(?:I'll|I will|I should|we'll|we should|let's|design\w*|built|prefer\w*|pick\w*|favou?r\w*|use[sd]?|using|keep\w*|stor(?:e|es|ed|ing)|implement(?:ed)?|chang(?:e|ed)|switch\w*|replac\w+|made|make|wrote|write|handl\w+|focus\w*|moved?|merged?|extract\w*|rewr(?:ite|ote))\b/i

/** "did X to avoid Y": a choice made for a purpose. */
const PURPOSE = /\b(?:to avoid|so as not to|to keep|to preserve|without breaking)\b/i

/** A constraint from the spec, the task or the user that ruled something in or out. */
const CONSTRAINT =
  /\b(?:spec|specification|the (?:task|bead|issue|ticket|epic|requirements?|plan)|CLAUDE\.md|AGENTS\.md)\b[^.;]{0,40}\b(?:says|said|requires?|forbids?|asks? for|calls? for|rules? out|prefers?|specif(?:ies|ied)|explicitly)\b/i

/** Any word a decision needs, for a quick first look at a whole text. */
const ANY_MARKER = new RegExp(
  [CHOICE, ALTERNATIVE, PURPOSE, CONSTRAINT].map((pattern) => pattern.source).join('|'),
  'i',
)

/** Words that give a reason. */
const REASON = /\b(?:because|since|so that|to avoid|in order to|as the|per the|given that|so\b)/i

/** A sentence about something going wrong: an explanation, not a choice. */
const FAILURE_TALK =
  /\b(?:fail(?:s|ed|ing|ure)?|errors?|stale|unused|not found|does(?:n't| not) exist|broken|crash\w*|warnings?|missing|undefined|expected)\b/i

/** A choice strong enough to count even in a sentence about a failure. */
const STRONG_CHOICE =
  /\b(?:instead of|rather than|decided|chose|opted|go(?:ing)? with|went with)\b/i

/** The agent weighing what to ask, or narrating its next step without choosing anything. */
const NOT_YET_CHOSEN =
  /\b(?:ask the user|whether (?:to|they|the user)|let me (?:check|look|see|read|verify|run)|I(?:'m| am) not sure|might want|could also|maybe)\b/i

/**
 * A diagnosis: the sentence's subject is the problem itself and its verb only says what the
 * problem is ("The issue is that the macro requires X", "This is because…"). It explains a
 * failure; it chooses nothing, even when it names a requirement.
 */
const DIAGNOSIS =
  /^(?:(?:the|this|that|our|one|another)\s+(?:\w+\s+)?(?:issue|problem|bug|error|cause|reason|catch|culprit|failure|difficulty|trouble)s?\s+(?:here\s+|now\s+)?(?:is|was|seems|appears|lies|comes)\b|(?:this|that|it)(?:'s|\s+is|\s+was)\s+(?:because|due to|caused by)\b)/i

/** True when `sentence` explains what went wrong rather than stating a choice (see DIAGNOSIS). */
export function isDiagnosis(sentence: string): boolean {
  return DIAGNOSIS.test(sentence.replace(FILLER_OPENER, '').trim())
}

/** Openers that carry no meaning of their own. */
const FILLER_OPENER =
  /^(?:(?:actually|ok(?:ay)?|so|now|alright|hmm|wait|right|good|great|also|for (?:the )?(?:implementation|fix|approach)),?\s+)+|^I'm reconsidering\s*[—-]+\s*/i

/** The decision sentences of an agent's text or thinking, each with how strongly it is one. */
export function decisionCandidates(text: string, uuid: string, bonus: number): DecisionCandidate[] {
  const candidates: DecisionCandidate[] = []
  // Most texts hold no choice at all: one scan settles them before any sentence splitting.
  if (!ANY_MARKER.test(text)) return candidates
  const flat = text.replace(/```[\s\S]*?```/g, ' ')
  for (const line of flat.split('\n')) {
    for (const raw of quotesWhole(sentencesOf(line.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s+/, '')))) {
      const sentence = oneLine(raw).replace(FILLER_OPENER, '')
      const score = decisionScore(sentence)
      if (score > 0) candidates.push({ text: capitalised(sentence), uuid, score: score + bonus })
    }
  }
  return candidates
}

/** How strongly `sentence` states a choice: 0 when it does not. */
export function decisionScore(sentence: string): number {
  if (sentence.length < 30 || sentence.length > 400 || sentence.endsWith('?')) return 0
  if (NOT_YET_CHOSEN.test(sentence) || isDiagnosis(sentence)) return 0
  const choice =
    CHOICE.test(sentence) ||
    ((ALTERNATIVE.test(sentence) || PURPOSE.test(sentence)) && COMMITS.test(sentence))
  const constraint = CONSTRAINT.test(sentence)
  if (!choice && !constraint) return 0
  if (FAILURE_TALK.test(sentence) && !STRONG_CHOICE.test(sentence)) return 0
  return (choice ? 2 : 0) + (constraint ? 2 : 0) + (REASON.test(sentence) ? 1 : 0)
}

/**
 * The best `limit` decisions in session order. Two candidates about the same thing (most of their
 * distinctive words shared) are one decision: the later one stands, as it was made knowing more.
 */
export function pickDecisions(candidates: DecisionCandidate[], limit: number): DecisionCandidate[] {
  const kept: Array<DecisionCandidate & { order: number; words: Set<string> }> = []
  for (const [order, candidate] of candidates.entries()) {
    const words = distinctiveWords(candidate.text)
    const same = kept.findIndex((other) => overlap(words, other.words) >= 0.5)
    const entry = { ...candidate, text: leadingSentences(candidate.text, 260), order, words }
    if (same === -1) kept.push(entry)
    else
      kept[same] = {
        ...entry,
        score: Math.max(entry.score, (kept[same] as DecisionCandidate).score),
      }
  }
  return kept
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .sort((a, b) => a.order - b.order)
    .map(({ text, uuid, score }) => ({ text, uuid, score }))
}

/** Words that tell one topic from another: long words and identifiers, lower-cased. */
export function distinctiveWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\w:./-]{5,}/g) ?? []
  return new Set(words.filter((word) => !COMMON.has(word)))
}

/** The share of the smaller set's words that the other set has too. */
export function overlap(a: Set<string>, b: Set<string>): number {
  const smaller = a.size <= b.size ? a : b
  const larger = smaller === a ? b : a
  if (smaller.size === 0) return 0
  let shared = 0
  for (const word of smaller) if (larger.has(word)) shared++
  return shared / smaller.size
}

const COMMON = new Set([
  'about',
  'after',
  'again',
  'already',
  'because',
  'before',
  'being',
  'instead',
  'rather',
  'should',
  'since',
  'simpler',
  'there',
  'these',
  'thing',
  'those',
  'through',
  'using',
  'where',
  'which',
  'while',
  'would',
])

/** Sentences joined again where a split fell inside a quotation (an odd number of `"`). */
function quotesWhole(sentences: string[]): string[] {
  const joined: string[] = []
  let open = ''
  for (const sentence of sentences) {
    const text = open === '' ? sentence : `${open} ${sentence}`
    if ((text.match(/"/g)?.length ?? 0) % 2 === 1) open = text
    else {
      joined.push(text)
      open = ''
    }
  }
  if (open !== '') joined.push(open)
  return joined
}

function capitalised(text: string): string {
  return text.length > 0 ? `${(text[0] as string).toUpperCase()}${text.slice(1)}` : text
}
