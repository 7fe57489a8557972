/**
 * Ways a secret arrives that hide it from the rules in `redact-secrets.ts` (issue 18): a zero-width
 * character inside a key, a key percent-encoded in a URL, a token wrapped over two lines. Each
 * helper undoes one disguise so the rules see the secret whole; `redactSecrets` keeps the original
 * text whenever nothing was found.
 */

/**
 * Invisible characters (soft hyphen, zero-width space/joiners, word joiner, bidi controls, BOM)
 * between two visible ASCII characters: nothing a reader sees, but enough to split `sk-ant-…`.
 * Between non-ASCII letters they carry meaning (a ZWJ in an emoji, a ZWNJ in Persian) and stay.
 */
const INVISIBLE_INSIDE_ASCII =
  /(?<=[!-~])(?:[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\u034F)+(?=[!-~])/g

/** Any of those characters anywhere (the cheap test before the replace). */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\u034F/

/** `text` without invisible characters inside ASCII runs; the same string when it has none. */
export function withoutInvisibleCharacters(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_INSIDE_ASCII, '') : text
}

/** A run of non-space characters that may be (part of) a URL. */
const URL_RUN = /[^\s"'`<>]+/g

/** One or more percent escapes in a row (`%40`, `%E2%80%8B`). */
const PERCENT_ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g

/**
 * `text` with every non-space run that holds percent escapes passed to `redact` decoded (twice at
 * most, for a URL inside a URL's query); a run whose decoded form holds no secret is kept as it was.
 * Runs are found by one linear scan, so a long blob costs no more than reading it.
 */
export function redactPercentEncoded(text: string, redact: (text: string) => string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return text
  return text.replace(URL_RUN, (run) => {
    if (!/%[0-9A-Fa-f]{2}/.test(run)) return run
    let decoded = percentDecoded(run)
    if (/%[0-9A-Fa-f]{2}/.test(decoded)) decoded = percentDecoded(decoded)
    const redacted = redact(decoded)
    return redacted === decoded ? run : redacted
  })
}

/** `run` with each well-formed sequence of escapes decoded; a malformed one is left as is. */
function percentDecoded(run: string): string {
  return run.replace(PERCENT_ESCAPES, (escapes) => {
    try {
      return decodeURIComponent(escapes)
    } catch {
      return escapes
    }
  })
}

/**
 * A token cut by a line break, as a terminal or a transcript wraps it: a known key prefix (or
 * `Bearer `) and token characters up to the end of a line, then a run of token characters that
 * starts the next line and ends where a token would (space, quote, bracket, end). The break may
 * be JSON-escaped (`\\n`, once or twice), as in a transcript line quoted whole. A head starts only
 * where no token character precedes it: a prefix inside a run (`sk-sk-sk-…`) would start a scan to
 * the run's end at each repeat, quadratic time (a 1 MB line of them ran for minutes).
 */
const WRAPPED_TOKEN =
  /(?<![A-Za-z0-9_.-])((?:sk-|[sr]k_(?:live|test)_|whsec_|smn_|npm_|glpat-|hf_|SG\.|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|AIza|eyJ)[A-Za-z0-9_.-]*|[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+[A-Za-z0-9._~+/-]{8,})(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)([A-Za-z0-9_.~+/=-]{8,})(?=[\s"'`)\]},;\\]|$)/g

/**
 * `text` with each wrapped token joined (the line break dropped) when the joined token is a
 * secret that takes in the second line, so the rules redact both halves. The second line must
 * look random (letters and digits, or 20 characters or more): an ordinary word after a key that
 * happens to end its line stays on its own line.
 */
export function joinWrappedTokens(text: string, redact: (text: string) => string): string {
  if (!text.includes('\n') && !text.includes('\\n')) return text
  return text.replace(WRAPPED_TOKEN, (match, head: string, tail: string) => {
    const random = (/[0-9]/.test(tail) && /[A-Za-z]/.test(tail)) || tail.length >= 20
    if (!random) return match
    const joined = `${head}${tail}`
    const redacted = redact(joined)
    return redacted !== joined && !redacted.includes(tail) ? joined : match
  })
}
