/**
 * Sentences cut to clauses, for the shortest levels (the service's quick ref): a 100-token
 * reference has room for a session's events only when each is told in its own few words ("I ran a
 * charity race for mental health last Saturday", not the sentence's "– it was so rewarding").
 * Bracketed asides (image captions, parentheses) are dropped: they describe, they rarely tell.
 */
import { sentenceFeatures } from './features.ts'
import { type SentenceRecord, speakerNameSet, type TextUnit, tighten } from './sentences.ts'
import { contentStems, words } from './text.ts'

/** Bracketed and parenthesised asides. */
const ASIDE = /\s*(?:\[[^\]]*\]|\([^)]*\))/g
/**
 * Where a sentence divides into clauses: a semicolon, a spaced dash, or a comma before a
 * conjunction or a relative word that starts a new statement.
 */
const CLAUSE_BREAK =
  /\s*(?:;|\s[-–—]+\s|,\s+(?=(?:and|but|so|plus)\s)|\s+(?=(?:and|but|so)\s+(?:i|it|we|he|she|they|you|that|this|there)\b))\s*/i
/** A clause that leans on the one before it ("even if it's hard") stays with it. */
const DEPENDENT =
  /^(?:even\s+(?:if|though|when)|if|when|whenever|because|'?cause|though|although|unless|while|since|until|as\s+if|as\s+long\s+as|so\s+that|which|who|where)\b/i
/** A clause shorter than this many words stays with the one before it. */
const MIN_CLAUSE_WORDS = 4

/** The clauses of `sentence`, asides dropped; the sentence itself when it does not divide. */
export function splitClauses(sentence: string): string[] {
  const bare = sentence.replace(ASIDE, '').trim()
  if (words(bare).length === 0) return [sentence]
  const clauses: string[] = []
  for (const part of bare.split(CLAUSE_BREAK)) {
    const piece = part.replace(/^(?:and|but|so|plus)\s+/i, '').trim()
    if (piece === '') continue
    const last = clauses.length - 1
    if (last >= 0 && (words(piece).length < MIN_CLAUSE_WORDS || DEPENDENT.test(piece)))
      clauses[last] = `${clauses[last]}, ${piece}`
    else if (last >= 0 && words(clauses[last] ?? '').length < MIN_CLAUSE_WORDS)
      clauses[last] = `${clauses[last]}, ${piece}`
    else clauses.push(piece)
  }
  return clauses.map(terminated)
}

/** `clause` ending in a terminator, so rendered clauses read as sentences. */
function terminated(clause: string): string {
  const text = clause.replace(/[\s,:–—-]+$/, '')
  const capital = text.charAt(0).toUpperCase() + text.slice(1)
  return /[.!?…]["'’”)]*$/.test(capital) ? capital : `${capital}.`
}

/** Every clause of every unit, in input order, scored as sentences are. */
export function explodeClauses(
  units: readonly TextUnit[],
  records: readonly SentenceRecord[],
): SentenceRecord[] {
  const speakerNames = speakerNameSet(units)
  const clauses: SentenceRecord[] = []
  for (const record of records) {
    for (const clause of splitClauses(record.text)) {
      const text = tighten(clause, speakerNames)
      clauses.push({
        ...record,
        index: clauses.length,
        original: clause,
        text,
        stems: contentStems(text),
        features: sentenceFeatures(clause, speakerNames),
      })
    }
  }
  return clauses
}
