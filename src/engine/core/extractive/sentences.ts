/** Units broken into scored sentences: the candidates every extractive skill chooses from. */
import { type SentenceFeatures, sentenceFeatures } from './features.ts'
import { contentStems, splitSentences, words } from './text.ts'

/** The shape of the port's `Unit`, restated here because core imports nothing outside itself. */
export interface TextUnit {
  id: string
  text: string
  speaker?: string | undefined
  timestamp?: string | undefined
}

/** One sentence of one unit, with what the scorer needs to know about it. */
export interface SentenceRecord {
  /** Position among all sentences of the input (the tie-breaker everywhere). */
  index: number
  unitIndex: number
  unitId: string
  speaker: string | undefined
  /** The sentence as written. */
  original: string
  /** The sentence without leading interjections and vocatives (what a summary shows). */
  text: string
  stems: string[]
  features: SentenceFeatures
}

/** Lowercase first names of the speakers: their mentions are address, not facts. */
export function speakerNameSet(units: readonly TextUnit[]): Set<string> {
  const names = new Set<string>()
  for (const unit of units) {
    for (const word of words(unit.speaker ?? '')) names.add(word.toLowerCase())
  }
  return names
}

/** Every sentence of every unit, in input order. */
export function explodeUnits(units: readonly TextUnit[]): SentenceRecord[] {
  const speakerNames = speakerNameSet(units)
  // One string per distinct stem: a 10 MB input has a million stems but only tens of thousands differ.
  const interned = new Map<string, string>()
  const intern = (stem: string) => {
    const known = interned.get(stem)
    if (known !== undefined) return known
    interned.set(stem, stem)
    return stem
  }
  const records: SentenceRecord[] = []
  units.forEach((unit, unitIndex) => {
    for (const original of splitSentences(unit.text)) {
      const text = tighten(original, speakerNames)
      records.push({
        index: records.length,
        unitIndex,
        unitId: unit.id,
        speaker: unit.speaker,
        original,
        text,
        stems: contentStems(text).map(intern),
        features: sentenceFeatures(original, speakerNames),
      })
    }
  })
  return records
}

const LEADING_GREETING =
  /^(?:hey|hi|hello|hiya)(?:\s+(?:there|guys|all|[\p{Lu}][\p{L}'-]*))?\s*[,!.]+\s+/iu
const LEADING_INTERJECTION =
  /^(?:(?:oh|ooh|wow|whoa|yeah|yes|yep|yup|ok|okay|well|haha+|hehe+|lol|hmm+|um+|uh+|ah+|aw+|omg|gosh|man|cool|great|awesome|nice|sure|right|totally|definitely|honestly|anyway|anyways|btw)\b[,!.…]*\s+)+/iu
/** Intensifiers before a word: they add tokens, never facts ("really scared" says "scared"). */
const INTENSIFIER =
  /\b(?:really|very|totally|truly|super|literally|basically|actually|absolutely|incredibly|extremely|seriously)\s+(?=[\p{L}])/giu
const TRAILING_VOCATIVE = /,\s+(\p{Lu}[\p{L}'-]*)(?=[!.?]*$)/u

/**
 * Drops what carries no fact from a sentence: a leading greeting or interjection ("Wow, ",
 * "Hey Mel! ") and a trailing vocative naming a speaker (", Caroline!"). Never empties it.
 */
export function tighten(sentence: string, speakerNames: ReadonlySet<string>): string {
  let text = sentence
    .replace(LEADING_GREETING, '')
    .replace(LEADING_INTERJECTION, '')
    .replace(INTENSIFIER, '')
  const vocative = TRAILING_VOCATIVE.exec(text)
  const name = vocative?.[1]?.toLowerCase()
  if (vocative && name && [...speakerNames].some((speaker) => speaker.startsWith(name))) {
    text = text.slice(0, vocative.index) + text.slice(vocative.index + vocative[0].length)
  }
  text = text.trim()
  if (words(text).length === 0) return sentence
  const tightened = text.charAt(0).toUpperCase() + text.slice(1)
  // The sentence itself when nothing changed, so a record doesn't hold two copies of it.
  return tightened === sentence ? sentence : tightened
}
