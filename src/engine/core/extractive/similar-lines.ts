/**
 * A cheap, deterministic "says the same thing" test for one-line memory entries, and its twin,
 * "says the opposite about the same thing". Word overlap alone calls "Use Node 18" and "Use Node
 * 20", or "We use Jest" and "Do not use Jest", the same line; the facts that matter most live in
 * exactly those differences, so numbers, negation and names are compared on their own.
 */
import { STOP_WORDS } from './stop-words.ts'
import { contentStems } from './text.ts'

const SOURCES_COMMENT = /<!--[\s\S]*?-->/g
const SOURCES_IDS = /<!--\s*sources:\s*([^;]*?)\s*(?:;[\s\S]*?)?-->/
const BULLET = /^\s*[-*]\s+/
const LIST_LINE = /^\s*[-*]\s+\S/
/** Words that flip what a sentence asserts. Counted, so "not never" reads as asserting. */
const NEGATION =
  /\b(?:not|no|never|nor|none|neither|cannot|without|nothing|nobody|nowhere)\b|n't\b|\b(?:dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|cant|shouldnt|mustnt)\b/g
const NEGATION_WORD =
  /^(?:not|no|never|nor|none|neither|cannot|without|nothing|nobody|nowhere|dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|cant|shouldnt|mustnt)$|n't$/

/** What a memory line asserts, taken apart into the parts that tell facts apart. */
export interface LineFacts {
  /** Content words, lowercased (the wording). */
  words: Set<string>
  /** Every token, lowercased, stop words included: where a name is looked up. */
  tokens: Set<string>
  /** Content words that are neither numbers, names nor negations: what the line is about. */
  subject: Set<string>
  /** Numbers and versions ("20", "3.2.1", "v2"), lowercased. */
  numbers: Set<string>
  /** Names and identifiers: capitalised mid-sentence, camelCase, ALLCAPS, paths, dotted names. */
  names: Set<string>
  /** True when the line denies rather than asserts. */
  negated: boolean
  /** The text lowercased with punctuation collapsed: equal means said verbatim again. */
  normalized: string
}

/** The text of a memory line without its bullet and sources comment. */
export function lineText(line: string): string {
  return line.replace(SOURCES_COMMENT, '').replace(BULLET, '').trim()
}

/** The source ids a memory line cites in its `<!-- sources: a, b; model date -->` comment. */
export function citedSources(line: string): string[] {
  const ids = SOURCES_IDS.exec(line)?.[1] ?? ''
  return ids
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
}

/** Takes a memory line apart (see LineFacts). */
export function factsOf(line: string): LineFacts {
  const text = lineText(line).replace(/[\u2018\u2019]/g, "'")
  const lower = text.toLowerCase()
  const words = new Set<string>()
  const subject = new Set<string>()
  const numbers = new Set<string>()
  const names = new Set<string>()
  const tokens = new Set<string>()
  for (const match of text.matchAll(/[\p{L}\p{N}_'][\p{L}\p{N}_'./\\:-]*/gu)) {
    const token = match[0].replace(/[.'/\\:-]+$/, '')
    if (token === '') continue
    const word = token.toLowerCase()
    tokens.add(word)
    const atStart = /(?:^|[.!?:;]|^[-*>#]+)$/.test(text.slice(0, match.index).trimEnd())
    if (/\p{N}/u.test(token)) {
      numbers.add(word)
      words.add(word)
      continue
    }
    if (NEGATION_WORD.test(word)) continue
    const name = isName(token, atStart)
    if (name) names.add(word)
    if (word.length <= 2 || STOP_WORDS.has(word)) continue
    words.add(word)
    if (!name) subject.add(word)
  }
  return {
    words,
    tokens,
    subject,
    numbers,
    names,
    negated: (lower.match(NEGATION)?.length ?? 0) % 2 === 1,
    normalized: lower.replace(/[^\p{L}\p{N}]+/gu, ' ').trim(),
  }
}

function isName(token: string, atStart: boolean): boolean {
  if (/[./\\_]/.test(token.slice(1))) return true
  if (/\p{Lu}/u.test(token.slice(1))) return true
  return !atStart && /^\p{Lu}/u.test(token)
}

/** Jaccard overlap of two word sets (1 when both are empty). */
export function overlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  if (left.size === 0 && right.size === 0) return 1
  let shared = 0
  for (const word of left) if (right.has(word)) shared += 1
  return shared / (left.size + right.size - shared)
}

/** Lines at or above this word overlap may be the same entry said again. */
export const SAME_ENTRY_OVERLAP = 0.7

/**
 * True when two lines state the same fact: mostly the same words, and the very same numbers,
 * names and polarity. A name counts as present when the other line has it in any case.
 */
export function sameFact(left: LineFacts, right: LineFacts): boolean {
  return (
    left.negated === right.negated &&
    sameSet(left.numbers, right.numbers) &&
    namesAgree(left, right) &&
    overlap(left.words, right.words) >= SAME_ENTRY_OVERLAP
  )
}

/** True when `candidate` states the same fact as one of `existing`. */
export function repeatsAny(candidate: string, existing: readonly string[]): boolean {
  const facts = factsOf(candidate)
  return existing.some((line) => sameFact(facts, factsOf(line)))
}

/** The index of the first of `existing` that states the same fact as `candidate`, or -1. */
export function indexOfRepeat(candidate: string, existing: readonly string[]): number {
  const facts = factsOf(candidate)
  return existing.findIndex((line) => LIST_LINE.test(line) && sameFact(facts, factsOf(line)))
}

/**
 * Parenthesised quoted examples (`Brief prompts ("Fix the login", "Add CSV")`): illustrations of
 * the fact, which differ from session to session while the fact stays the same.
 */
const QUOTED_EXAMPLES = /\s*\((?:\s*"[^"]*"\s*,?)+\)/g
/** Quote marks: a capital just after one starts the quoted sentence, it does not make a name. */
const QUOTE_MARKS = /["\u201c\u201d]/g

/** What a line means, for telling restatements apart from other facts (see sameMeaning). */
export interface LineMeaning {
  facts: LineFacts
  /** Porter stems of its content words: "installs" and "installing" are one word here. */
  stems: Set<string>
}

/** A line taken apart for sameMeaning: quoted examples and quote marks left out. */
export function meaningOf(line: string): LineMeaning {
  const text = lineText(line).replace(QUOTED_EXAMPLES, '').replace(QUOTE_MARKS, '')
  return { facts: factsOf(text), stems: new Set(contentStems(text)) }
}

/**
 * True when two lines state the same fact in other words, as several sessions of one sleep do
 * ("I always prefer pnpm over npm for installing packages", "Remember: I prefer pnpm to npm for
 * package installs"): the same text once examples, quotes, case and punctuation are set aside, or
 * mostly the same word stems with the very same numbers, names and polarity. The guards are
 * sameFact's, so "Use Node 18" and "Use Node 20", or "Use Jest" and "Do not use Jest", stay two.
 */
export function sameMeaning(left: LineMeaning, right: LineMeaning): boolean {
  if (left.facts.normalized === right.facts.normalized) return true
  return (
    left.facts.negated === right.facts.negated &&
    sameSet(left.facts.numbers, right.facts.numbers) &&
    namesAgree(withoutPronoun(left.facts), withoutPronoun(right.facts)) &&
    overlap(left.stems, right.stems) >= SAME_ENTRY_OVERLAP
  )
}

/**
 * The index of the first list line of `existing` that states the same fact as `candidate` (by
 * sameFact, or in other words by sameMeaning), or -1.
 */
export function indexOfSameMeaning(candidate: string, existing: readonly string[]): number {
  const facts = factsOf(candidate)
  const meaning = meaningOf(candidate)
  return existing.findIndex(
    (line) =>
      LIST_LINE.test(line) &&
      (sameFact(facts, factsOf(line)) || sameMeaning(meaning, meaningOf(line))),
  )
}

/** `facts` without the pronoun "I", which reads as a name mid-sentence but names nothing. */
function withoutPronoun(facts: LineFacts): LineFacts {
  if (!facts.names.has('i')) return facts
  return { ...facts, names: new Set([...facts.names].filter((name) => name !== 'i')) }
}

/** The index of the first of `existing` that says `candidate` word for word, or -1. */
export function indexOfRestatement(candidate: string, existing: readonly string[]): number {
  const normalized = factsOf(candidate).normalized
  return existing.findIndex(
    (line) => LIST_LINE.test(line) && factsOf(line).normalized === normalized,
  )
}

/** `line` citing `ids` too, in its `<!-- sources: ... -->` comment (added when it has none). */
export function withSources(line: string, ids: readonly string[]): string {
  const cited = citedSources(line)
  const all = [...new Set([...cited, ...ids])]
  if (all.length === cited.length) return line
  const match = SOURCES_IDS.exec(line)
  if (!match) return `${line.trimEnd()} <!-- sources: ${all.join(', ')} -->`
  const replaced = match[0].replace(
    /sources:\s*[^;]*?(\s*(?:;|-->))/,
    `sources: ${all.join(', ')}$1`,
  )
  return line.replace(match[0], replaced)
}

/** True when `candidate` is one of `existing` said again, up to case, punctuation and spacing. */
export function restatesAny(candidate: string, existing: readonly string[]): boolean {
  const normalized = factsOf(candidate).normalized
  return existing.some((line) => factsOf(line).normalized === normalized)
}

/**
 * How a newer line contradicts an older one about the same subject, or null. Same subject means
 * the very same subject words (at least two, so "Use Jest" and "Use Docker" stay two facts):
 * - `negation`: same numbers and names, opposite polarity ("Do not use Jest for unit tests").
 * - `value`: same polarity, another number, version or name ("Use Node 20 for the backend").
 */
export function contradiction(newer: LineFacts, older: LineFacts): 'negation' | 'value' | null {
  if (older.subject.size < 2 || !sameSet(newer.subject, older.subject)) return null
  const sameValues = sameSet(newer.numbers, older.numbers) && namesAgree(newer, older)
  if (newer.negated !== older.negated) return sameValues ? 'negation' : null
  return sameValues ? null : 'value'
}

function namesAgree(left: LineFacts, right: LineFacts): boolean {
  const covered = (names: ReadonlySet<string>, tokens: ReadonlySet<string>) =>
    [...names].every((name) => tokens.has(name))
  return covered(left.names, right.tokens) && covered(right.names, left.tokens)
}

function sameSet(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  return left.size === right.size && [...left].every((item) => right.has(item))
}
