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
import type { ErrorFix } from './error-fix.ts'
import { describeErrorFix, remedyOf } from './error-fix-text.ts'
import { onlyAssertionsChanged } from './error-fixes.ts'
import type { DigestItem } from './session-digest.ts'
import { isEditInProgress } from './touched-names.ts'

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
  /** When it happened: the compaction epoch (a summary's bullets come just before its epoch's failures). */
  at: number
}

/** The session's gotchas, newest account first. */
export function gotchasOf(
  material: DigestMaterial,
  sections: Array<Map<string, string>>,
): DigestItem[] {
  const inProgress = (symptom: string) => isEditInProgress(symptom, material.touchedNames)
  const fixed = material.errors.all.filter(
    (failure) =>
      (failure.fixed || failure.fromHook) &&
      (failure.cause !== '' || failure.fix !== '' || failure.fixCommand !== '') &&
      !inProgress(failure.errorLine) &&
      // A test whose expectation was rewritten to pass: the test was wrong, nothing to learn.
      !onlyAssertionsChanged(failure),
  )
  const tracked = chains(unique(fixed)).map(chainGotcha)
  const summarised = sections.flatMap((found, index) =>
    sectionBullets(sectionNamed(found, 'error')).flatMap((bullet) => {
      const text = oneLine([bullet.text, ...bullet.children].join(' '))
      if (NO_GOTCHA.test(text) || inProgress(text.split(/\.\s/)[0] ?? text)) return []
      const uuid = material.compactions[index]?.uuid ?? ''
      return [{ text, uuids: [uuid], words: distinctiveWords(text), at: index - 0.5 }]
    }),
  )
  // The followed failures are distinct already; a summary's account joins the one it tells of.
  const merged: Gotcha[] = [...tracked]
  for (const gotcha of summarised) {
    const same = merged.find(
      (known) => overlap(gotcha.words, known.words) >= 0.5 || sharesCodeName(gotcha, known),
    )
    if (same === undefined) merged.push(gotcha)
    else same.uuids.push(...gotcha.uuids)
  }
  // In the session's order, so a budget that keeps the first keeps the earliest, not one kind.
  return merged
    .sort((left, right) => left.at - right.at)
    .map((gotcha) => ({
      text: leadingSentences(gotcha.text, GOTCHA_CHARS),
      sources: [...new Set(gotcha.uuids.filter((uuid) => uuid !== '').map(shortId))].slice(0, 4),
    }))
}

/**
 * Two accounts of one problem name the same thing in code (`secret_key_base`, `lazy_html`): the
 * session's own error line and the summary's words for it rarely share much else.
 */
function sharesCodeName(left: Gotcha, right: Gotcha): boolean {
  const names = (gotcha: Gotcha) =>
    new Set(
      [...gotcha.words]
        .map((word) => word.replace(/^[:./-]+|[:./-]+$/g, ''))
        .filter((word) => CODE_NAME.test(word)),
    )
  const theirs = names(right)
  return [...names(left)].some((name) => theirs.has(name))
}

/** A word that is a name in code, lower-cased: snake_case (`secret_key_base`, `lazy_html`). */
const CODE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/

/**
 * Each error line once: a failure that showed again after the first was fixed (the same error of
 * the same command, in steps: `Pre-commit validation failed` for formatting, then for dialyzer)
 * adds its fix to the first, in order, unless the agent found another cause for it.
 */
function unique(failures: ErrorFix[]): ErrorFix[] {
  const first = new Map<string, ErrorFix>()
  const kept: ErrorFix[] = []
  for (const failure of failures) {
    const known = first.get(`${failure.key}\n${failure.errorLine}`)
    // The same error line with a cause of its own is another problem behind the same message.
    if (known === undefined || (failure.cause !== '' && failure.cause !== known.cause)) {
      const copy = { ...failure, sources: [...failure.sources] }
      first.set(`${failure.key}\n${failure.errorLine}`, copy)
      kept.push(copy)
      continue
    }
    if (failure.fix !== '' && !known.fix.includes(failure.fix))
      known.fix = known.fix === '' ? failure.fix : `${known.fix}; then ${failure.fix}`
    if (known.fixCommand === '') known.fixCommand = failure.fixCommand
    known.sources.push(...failure.sources.slice(1))
  }
  return kept
}

/** Failures of one command that the same run showed fixed, in order: one chain each. */
function chains(failures: ErrorFix[]): ErrorFix[][] {
  const groups: ErrorFix[][] = []
  for (const failure of failures) {
    const last = groups.at(-1)
    const head = last?.[0]
    if (
      head !== undefined &&
      !failure.fromHook &&
      !head.fromHook &&
      head.key !== 'summary' &&
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
  // The cause tells apart two problems behind one message (`Pre-commit validation failed`).
  const words = distinctiveWords(
    chain.map((failure) => `${failure.errorLine} ${failure.cause}`).join(' '),
  )
  return { text, uuids, words, at: first.epoch }
}
