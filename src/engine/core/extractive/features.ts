/**
 * What makes a sentence worth keeping: the cue phrases and surface features the extractive model
 * looks for, and their weights. Every number the scorer uses lives in WEIGHTS, here.
 */
import { CHATTER_WORDS, STOP_WORDS } from './stop-words.ts'
import { normalizeWord, words } from './text.ts'

/** A kind of fact-bearing statement, detected by cue phrases. */
export type CueKind =
  | 'decision'
  | 'correction'
  | 'error'
  | 'fix'
  | 'preference'
  | 'commitment'
  | 'plan'
  | 'ban'
  | 'credential'
  | 'win'
  | 'status'
  | 'learning'

/** Cue phrases per kind: English, case-insensitive, matched on word boundaries. */
export const CUES: Record<CueKind, RegExp> = {
  decision:
    /\b(decided|decide to|decision|(?:will|we'll|i'll|let's) use|going with|go with|chose|chosen|opted|settled on|switched to|agreed to|picked)\b/i,
  correction:
    /\b(actually|instead|wrong|incorrect|correction|i meant|rather than|mistaken|scratch that|not anymore|no longer)\b|(?:^|[.!?]\s+)no[,.!]/i,
  error:
    /\b(errors?|fail(?:ed|s|ing|ure)?|exception|crash(?:ed|es)?|broke|broken|bugs?|traceback|timed? ?out|denied|refused|not working|doesn't work|didn't work|segfault|undefined is not|[A-Z][a-z]+Error|ENOENT|EACCES|E\d{3,})\b/,
  fix: /\b(fixed|fix(?:ed)? (?:it |this )?by|the fix|resolved|solved|workaround|work(?:ed)? around|solution|the trick|root cause|the cause|patched)\b/i,
  preference:
    /\b(prefer(?:s|red|ence)?|favou?rite|always|never|(?:i|we|he|she|they|you) (?:really |also |just )?(?:like|love|hate|enjoy|dislike|adore)s?|loves|hates|enjoys|can't stand|fan of|passionate about)\b/i,
  commitment:
    /\b(promised?|commit(?:ted)? to|deadline|due (?:by|on|date)|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|eod|end of)|remind me)\b/i,
  plan: /\b(will|i'll|we'll|going to|gonna|plan(?:s|ning|ned)? to|next step|todo|to-do|intend|hoping to|about to|thinking of|want to|need to|have to)\b/i,
  ban: /\b(banned|ban|blocked|suspended|forbidden|not allowed|do not|don't ever|never (?:use|commit|push|run|delete))\b/i,
  credential:
    /\b(api[ _-]?key|password|passphrase|secret|credentials?|ssh key|access token|auth token)\b/i,
  win: /\b(merged|shipped|released|launched|deployed|passed|passing|succeeded|successful(?:ly)?|completed|finished|won|achieved|accepted|published|promoted|graduated|got the job)\b(?!['’])/i,
  status:
    /\b(status|in progress|wip|pending|waiting (?:on|for)|blocked on|working on|started|progress|pr #?\d+|issue #?\d+)\b/i,
  learning:
    /\b(learned|realized|discovered|noticed|turns out|found (?:out )?that|the key is|lesson|gotcha|caveat|undocumented|the trick)\b/i,
}

const CUE_KINDS = Object.keys(CUES) as CueKind[]
/**
 * Any cue at all, in one pass: most sentences have none, and then the twelve tests are skipped.
 * Every pattern matched case-insensitively: a superset of what each matches with its own flags.
 */
const ANY_CUE = new RegExp(CUE_KINDS.map((kind) => CUES[kind].source).join('|'), 'i')

const DATE_WORDS =
  /\b(jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|yesterday|today|tomorrow|tonight|weekend|last (?:week|month|year|night|summer|winter|spring|fall)|next (?:week|month|year)|ago|(?:19|20)\d{2}|\d{1,2}:\d{2}|\d{1,2} ?(?:am|pm))\b/gi
const NUMBERS =
  /\b(\d+(?:[.,:/]\d+)*%?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen|first|second|third)\b/gi
const GREETING =
  /^(?:let['’]s (?:talk|chat|catch up|speak)|hi|hey|hello|hiya|yo|good (?:morning|afternoon|evening|night)|bye|goodbye|see you|see ya|talk (?:to you )?(?:soon|later)|take care|thanks?|thank you|ty|cheers|congrats|congratulations|welcome|nice to|great to|good to|glad to|haha|hehe|lol|wow|whoa|aw+|omg|yay)\b/i
const MONTH_OR_DAY =
  /^(?:jan(?:uary)?|feb(?:ruary)?|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i
const FIRST_PERSON = /\b(i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our|us)\b/i
/**
 * Something the speaker did or will do: "I" or "we" (with a helper or an adverb or two) before a
 * past-tense verb, or a plan ("I'm going to", "we're thinking about", "I'll").
 */
const FIRST_PERSON_EVENT =
  /\b(?:i|we)(?:['’](?:ve|ll|d|m|re)|\s+(?:have|had|will|am|are|was|were))?(?:\s+(?:just|finally|recently|also|actually|already|even|first|then|went\s+and|got\s+to))*\s+(?:[a-z]+ed|ate|became|began|bought|brought|built|came|caught|chose|did|drew|drove|fell|felt|flew|found|gave|got|grew|had|heard|held|kept|knew|led|left|lost|made|met|paid|put|ran|rode|sang|sat|saw|sent|set|sold|spent|spoke|stood|swam|taught|thought|told|took|went|won|woke|wore|wrote|going\s+to|gonna|planning|thinking\s+(?:about|of)|hoping|signing\s+up|starting|getting|moving|taking|trying|visiting|joining)\b/i

/**
 * The weights of the summary scorer. A sentence's gain = the normalized TF-IDF weight (0-1 per
 * stem, rarest = 1, damped by idfExponent) of its stems no kept sentence covers yet + the bonuses below − redundancy ×
 * its cosine to the closest kept sentence; candidates rank by gain / tokens^costExponent. Two
 * rules sit outside the weights (summarize.ts): RED sentences (priority.ts) are chosen before all
 * others, and chatter is never kept. `name` and `date` were raised from first guesses 0.6 / 0.7
 * on the LoCoMo dev half (retention at 20 %: 0.640 → 0.669); the rest are first guesses that
 * ablations moved by under 0.01.
 */
export const WEIGHTS = {
  /** Per distinct capitalised word that is not a sentence start, a speaker or a calendar word. */
  name: 2,
  /** Most names credited per sentence. */
  maxNames: 3,
  /** Per number (digits or number words), at most two. */
  number: 0.5,
  /** Per date or time expression, at most two. */
  date: 1.4,
  /** Per cue kind present. */
  cue: {
    decision: 1.5,
    correction: 1.2,
    error: 1.0,
    fix: 1.5,
    preference: 1.0,
    commitment: 1.2,
    plan: 0.4,
    ban: 1.2,
    credential: 1.2,
    win: 1.0,
    status: 0.5,
    learning: 1.0,
  } satisfies Record<CueKind, number>,
  /** A statement about the speaker's own life or work ("I", "my", "we"): where facts live. */
  firstPerson: 0.3,
  /**
   * A first-person event or plan, in the terse levels only (quick refs): there the budget holds a
   * handful of clauses and what the speaker did or will do is what later questions ask about.
   */
  terseEvent: 3.0,
  /**
   * In the terse levels, a clause with no fact at all (no name, number, date, cue or event:
   * "Your kind words mean a lot"): a reference lists facts, and this is the question penalty's size.
   */
  terseFactless: -1.0,
  /** A question: it asks rather than tells. */
  question: -1.0,
  /** Greetings, thanks, laughter, praise: no facts. */
  chatter: -3.0,
  /** Times the cosine similarity to the closest kept sentence (MMR-style redundancy penalty). */
  redundancy: 2.0,
  /**
   * A stem's weight is (idf / max idf)^idfExponent: below 1 it damps IDF, so words a session keeps
   * returning to (its topic, which questions ask about) still count next to one-off words.
   * 0.5 was chosen on LoCoMo conversations 26, 30 and 41 only (at 20 %, dates not credited:
   * 0.603 → 0.614; 42 and 43, held out: 0.651 → 0.652).
   */
  idfExponent: 0.5,
  /** Sentences are ranked by gain / tokens^costExponent: 1 favours dense sentences. */
  costExponent: 0.8,
}

/** What one sentence contains, before any weighting. */
export interface SentenceFeatures {
  names: string[]
  numbers: number
  dates: number
  cues: CueKind[]
  question: boolean
  chatter: boolean
  firstPerson: boolean
  /** The speaker tells what they did or will do (FIRST_PERSON_EVENT). */
  event: boolean
  /** Words that are not stop words. */
  contentWords: number
}

/** Reads the features of `sentence`; `speakerNames` (lowercase) are not counted as names. */
export function sentenceFeatures(
  sentence: string,
  speakerNames: ReadonlySet<string> = new Set(),
): SentenceFeatures {
  const all = words(sentence)
  const names = new Set<string>()
  all.forEach((word, index) => {
    if (index === 0 || !startsUppercase(word) || word === 'I' || /^I['’]/.test(word)) return
    const normal = normalizeWord(word)
    if (
      MONTH_OR_DAY.test(normal) ||
      speakerNames.has(normal) ||
      isSpeakerPrefix(normal, speakerNames)
    )
      return
    names.add(normal)
  })
  const cues = ANY_CUE.test(sentence) ? CUE_KINDS.filter((kind) => CUES[kind].test(sentence)) : []
  let contentWords = 0
  let chatty = 0
  for (const word of all) {
    const normal = normalizeWord(word)
    if (STOP_WORDS.has(normal)) continue
    contentWords += 1
    if (CHATTER_WORDS.has(normal)) chatty += 1
  }
  const numbers = (sentence.match(NUMBERS) ?? []).length
  const facts = names.size > 0 || numbers > 0 || cues.length > 0
  const chatter =
    (GREETING.test(sentence) && contentWords - chatty <= 2) ||
    (!facts && contentWords - chatty <= 1)
  return {
    names: [...names],
    numbers,
    dates: (sentence.match(DATE_WORDS) ?? []).length,
    cues,
    question: /\?\s*$/.test(sentence),
    chatter,
    firstPerson: FIRST_PERSON.test(sentence),
    event: FIRST_PERSON_EVENT.test(sentence),
    contentWords,
  }
}

/** The additive bonus (or penalty) the features earn, per WEIGHTS; `terse` for the quick ref's. */
export function featureBonus(features: SentenceFeatures, terse = false): number {
  let bonus = WEIGHTS.name * Math.min(features.names.length, WEIGHTS.maxNames)
  bonus += WEIGHTS.number * Math.min(features.numbers, 2)
  bonus += WEIGHTS.date * Math.min(features.dates, 2)
  for (const kind of features.cues) bonus += WEIGHTS.cue[kind]
  if (features.firstPerson && !features.question) bonus += WEIGHTS.firstPerson
  if (features.question) bonus += WEIGHTS.question
  if (features.chatter) bonus += WEIGHTS.chatter
  if (terse && features.event && !features.question) bonus += WEIGHTS.terseEvent
  if (terse && !hasFact(features)) bonus += WEIGHTS.terseFactless
  return bonus
}

/** True when `features` hold any fact marker: a name, a number, a date, a cue or an event. */
function hasFact(features: SentenceFeatures): boolean {
  return (
    features.names.length > 0 ||
    features.numbers > 0 ||
    features.dates > 0 ||
    features.cues.length > 0 ||
    features.event
  )
}

/** `/^\p{Lu}/u`, answered without the regex for ASCII (almost every word). */
function startsUppercase(word: string): boolean {
  const code = word.charCodeAt(0)
  if (code < 128) return code >= 65 && code <= 90
  return /^\p{Lu}/u.test(word)
}

/** True when `word` is how someone shortens a speaker's name (`Mel` for `melanie`). */
function isSpeakerPrefix(word: string, speakerNames: ReadonlySet<string>): boolean {
  if (word.length < 3) return false
  for (const name of speakerNames) if (name.startsWith(word)) return true
  return false
}
