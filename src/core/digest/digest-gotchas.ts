/**
 * Gotchas: what went wrong and how it was fixed, as symptom → cause → fix. Failures the session
 * fixed come from following its calls (the real error line, the agent's explanation, the change
 * that fixed it); the compaction summaries list the errors of the part they cover. One problem
 * told by both is one gotcha citing both; failures of one command fixed by the same run are one
 * chain. A failure never fixed is not a gotcha (it is open, or noise).
 */
import { sectionBullets, sectionNamed } from './compaction-summary.ts'
import { distinctiveWords, overlap } from './digest-decisions.ts'
import type { DigestMaterial } from './digest-material.ts'
import { code, leadingSentences, oneLine, shortId } from './digest-text.ts'
import { describeErrorFix, type ErrorFix, remedyOf } from './error-fixes.ts'
import type { DigestItem } from './session-digest.ts'

/**
 * A summary's error bullet that is no gotcha: no problem at all ("expected while editing"), or one
 * the summary's writer had not fixed yet ("CURRENT: … need to restructure"; the session went on).
 */
const NO_GOTCHA =
  /^[^:]*:\s*expected\b|\(expected\b|\bexpected (?:during|while|since|because)\b|^(?:current|pending|todo|open)\b|\bneeds? to\b(?![^.]*\bfixed\b)/i

/** Longest gotcha, in characters. */
const GOTCHA_CHARS = 480

interface Gotcha {
  text: string
  uuids: string[]
  words: Set<string>
}

/** The session's gotchas, newest account first. */
export function gotchasOf(
  material: DigestMaterial,
  sections: Array<Map<string, string>>,
): DigestItem[] {
  const fixed = material.errors.all.filter(
    (failure) =>
      (failure.fixed || failure.fromHook) &&
      (failure.cause !== '' || failure.fix !== '' || failure.fixCommand !== ''),
  )
  const tracked = chains(unique(fixed)).map(chainGotcha)
  const summarised = sections.flatMap((found, index) =>
    sectionBullets(sectionNamed(found, 'error')).flatMap((bullet) => {
      const text = oneLine([bullet.text, ...bullet.children].join(' '))
      if (NO_GOTCHA.test(text)) return []
      const uuid = material.compactions[index]?.uuid ?? ''
      return [{ text, uuids: [uuid], words: distinctiveWords(text) }]
    }),
  )
  const merged: Gotcha[] = []
  for (const gotcha of [...tracked, ...summarised]) {
    const same = merged.find((known) => overlap(gotcha.words, known.words) >= 0.5)
    if (same === undefined) merged.push(gotcha)
    else same.uuids.push(...gotcha.uuids)
  }
  return merged.map((gotcha) => ({
    text: leadingSentences(gotcha.text, GOTCHA_CHARS),
    sources: [...new Set(gotcha.uuids.filter((uuid) => uuid !== '').map(shortId))].slice(0, 4),
  }))
}

/** Each error line once (the first time it showed). */
function unique(failures: ErrorFix[]): ErrorFix[] {
  const seen = new Set<string>()
  return failures.filter((failure) => {
    if (seen.has(failure.errorLine)) return false
    seen.add(failure.errorLine)
    return true
  })
}

/** Failures of one command that the same successful run closed, in order: one chain each. */
function chains(failures: ErrorFix[]): ErrorFix[][] {
  const groups: ErrorFix[][] = []
  for (const failure of failures) {
    const last = groups.at(-1)
    const head = last?.[0]
    if (
      head !== undefined &&
      !failure.fromHook &&
      !head.fromHook &&
      head.key === failure.key &&
      head.sources.at(-1) === failure.sources.at(-1)
    )
      last?.push(failure)
    else groups.push([failure])
  }
  return groups
}

function chainGotcha(chain: ErrorFix[]): Gotcha {
  const first = chain[0] as ErrorFix
  // A chain names its command once, then each error with what fixed it (the cause only if short).
  const text =
    chain.length === 1
      ? describeErrorFix(first)
      : `${code(first.key)}: ${chain
          .map((failure) => {
            const remedy = remedyOf({
              ...failure,
              cause: failure.cause.length <= 80 ? failure.cause : '',
            })
            const symptom = code(leadingSentences(failure.errorLine, 90).replace(/…$/, ''))
            return [symptom, ...remedy].join(' → ')
          })
          .join('; ')}`
  const uuids = chain.flatMap((failure) => failure.sources.slice(0, 1))
  uuids.push(first.sources.at(-1) ?? '')
  const words = distinctiveWords(chain.map((failure) => failure.errorLine).join(' '))
  return { text, uuids, words }
}
