/**
 * `scheme://user:password@host` in text (issue 18): the password goes, the user and host stay.
 * The password runs to the last `@` of the URL, since an unescaped one (`p@ss/w0rd`) is common in
 * hand-written URLs. Found in one pass: as one regular expression, a URL head at each repeat of
 * `x://x:x://x:…` read the rest of the run looking for an `@`, quadratic time on hostile text.
 */

import { isPlaceholder } from './secret-values.ts'

/**
 * `scheme://user:`, each part bounded (a scheme is a word, a user name fits in 256 characters): a
 * head is tried at each word boundary, and `a-a-a-…` read to its end from each was quadratic.
 */
const URL_HEAD = /\b[a-z][a-z0-9+.-]{0,40}:\/\/[^\s:/@"'`<>]{0,256}:/gi

/** What ends a URL's password (and the URL). */
const PASSWORD_STOP = /[\s"'`<>]/g

/** Longer than any password or token a URL carries. */
const MAX_PASSWORD = 256

/** The marker in place of a URL's password. */
const PASSWORD_MARKER = '[redacted: password]'

/** The cheap test: text without a URL head and an `@` has no URL credentials. */
export function mayHoldUrlCredentials(text: string): boolean {
  return text.includes('@') && /:\/\/[^\s:/@]{0,256}:/.test(text)
}

/**
 * `text` with the password of each `scheme://user:password@` replaced by a marker; a placeholder
 * (`$PASSWORD`, `<password>`) and a port with a path (`host:8080/a@b`) are kept.
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('://') || !text.includes('@')) return text
  const head = URL_HEAD
  const stopAt = PASSWORD_STOP
  head.lastIndex = 0
  let out = ''
  let kept = 0
  // Heads come in order and so do their ends: the first stop character at or after the last end,
  // and the last `@` before the last limit with the `@` after it, only move forward.
  let stop = -1
  let lastAt = -1
  let nextAt = text.indexOf('@')
  for (let match = head.exec(text); match !== null; match = head.exec(text)) {
    const from = match.index + match[0].length
    if (stop < from) {
      stopAt.lastIndex = from
      stop = stopAt.exec(text)?.index ?? text.length
    }
    const limit = Math.min(stop - 1, from + MAX_PASSWORD)
    while (nextAt !== -1 && nextAt <= limit) {
      lastAt = nextAt
      nextAt = text.indexOf('@', nextAt + 1)
    }
    const at = lastAt <= limit ? lastAt : text.lastIndexOf('@', limit)
    if (at < from) {
      // No `@` ends a password here; a head starting further on may still have one.
      head.lastIndex = match.index + 1
      continue
    }
    head.lastIndex = at + 1
    const password = text.slice(from, at)
    if (isPlaceholder(password) || /^\d{1,5}(?:\/|$)/.test(password)) continue
    out += `${text.slice(kept, from)}${PASSWORD_MARKER}@`
    kept = at + 1
  }
  return kept === 0 ? text : out + text.slice(kept)
}
