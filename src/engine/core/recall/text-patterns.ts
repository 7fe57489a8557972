/**
 * Recall's word patterns in two forms: the Unicode one (`\p{L}`, `\p{N}`), and one for text that
 * holds no letter or digit outside ASCII, which gives the same matches. Compiling a `\p{...}`
 * pattern costs a fresh process ~1.5-3 ms each (V8 builds the property's ranges), and the prompt
 * hook is a fresh process that compiled four of them for a handful of short lines: ~8 ms of a
 * budget of ~20. Notes are almost always plain (ASCII with arrows, dashes, quotes, ellipses), so
 * the Unicode forms are compiled only when a text needs them.
 */

/**
 * Marks outside ASCII that notes use often (space, section, degree, plus-minus, middle dot, times,
 * dashes, curly quotes, bullet, ellipsis, arrows, relations, checks and crosses, warning, the
 * stars of a bookmark's salience, which SessionStart's own text shows). None is
 * a letter or a digit (text-patterns.test.ts checks each against `\p{L}\p{N}`), so on text of
 * ASCII and these, `[A-Za-z0-9]` classifies exactly as `[\p{L}\p{N}]` does.
 */
export const PLAIN_MARKS =
  '\u00a0\u00a7\u00b0\u00b1\u00b7\u00d7\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026' +
  '\u2190\u2191\u2192\u2193\u2194\u21d2\u2260\u2264\u2265\u2705\u2713\u2717\u274c\u26a0' +
  '\u2605\u2606'

/** Any character that is neither ASCII nor one of PLAIN_MARKS. */
const NOT_PLAIN = new RegExp(`[^\\x00-\\x7f${PLAIN_MARKS}]`)

/** True when `text` holds no letter or digit outside ASCII (the plain patterns apply). */
export function isPlainText(text: string): boolean {
  return !NOT_PLAIN.test(text)
}

/** A pattern built on first use, so a process pays only for the forms it uses. */
function lazy(make: () => RegExp): () => RegExp {
  let made: RegExp | undefined
  return () => {
    made ??= make()
    return made
  }
}

const UNICODE = {
  compound: lazy(() => /[\p{L}\p{N}]+(?:[_.\-/:'’]*[\p{L}\p{N}]+)*/gu),
  joints: lazy(() => /[_.\-/:'’]+|(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u),
  nonWord: lazy(() => /[^\p{L}\p{N}]+/gu),
  contraction: lazy(() => /^[\p{L}]+'[\p{L}]{1,2}$/u),
  simpleWord: () => null,
}
const PLAIN = {
  compound: lazy(() => /[A-Za-z0-9]+(?:[_.\-/:'’]*[A-Za-z0-9]+)*/g),
  joints: lazy(() => /[_.\-/:'’]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/),
  nonWord: lazy(() => /[^A-Za-z0-9]+/g),
  contraction: lazy(() => /^[A-Za-z]+'[A-Za-z]{1,2}$/),
  simpleWord: lazy(() => /^[A-Za-z0-9][a-z0-9]*$/),
}

/** Recall's word patterns, in the form that fits `text`. */
export interface TextPatterns {
  /** A run of letters and digits joined by the marks code names use (`_ . - / :` and quotes). */
  compound: RegExp
  /** Where a compound splits into words: its marks, and a change of case. */
  joints: RegExp
  /** A run of what is neither letter nor digit. */
  nonWord: RegExp
  /** A possessive or contraction (`user's`, `don't`). */
  contraction: RegExp
  /** A word that `joints` cannot split (plain text only: null for Unicode text). */
  simpleWord: RegExp | null
}

/**
 * The patterns for `text`: the plain ones when it allows them (same matches, cheaper to build).
 * Each is built when first read, so a caller that needs one pattern compiles only that one
 * (SessionStart normalizes every shown line with `nonWord` alone).
 */
export function patternsFor(text: string): TextPatterns {
  const forms = isPlainText(text) ? PLAIN : UNICODE
  return {
    get compound() {
      return forms.compound()
    },
    get joints() {
      return forms.joints()
    },
    get nonWord() {
      return forms.nonWord()
    },
    get contraction() {
      return forms.contraction()
    },
    get simpleWord() {
      return forms.simpleWord()
    },
  }
}
