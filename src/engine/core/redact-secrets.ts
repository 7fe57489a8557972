/**
 * The one redaction step (principle 8, docs/design/principles.md): text from a transcript, a
 * bookmark or a closing message passes through `redactSecrets` before Somnus stores or prints it,
 * so no secret reaches a file that may be committed or a model provider. Each secret becomes a
 * marker naming what was there (`[redacted: github token]`); the text around it is kept.
 */

import { redactCommandSecrets } from './command-secrets.ts'
import { ASSIGNMENT, redactAssignment, SECRET_NAME_WORD } from './secret-assignment.ts'
import {
  joinWrappedTokens,
  redactPercentEncoded,
  withoutInvisibleCharacters,
} from './secret-disguises.ts'
import { FORMAT_PREFIX, FORMAT_RULES, formatReplacer, redactionMarker } from './secret-formats.ts'
import { isHighEntropy, isPlaceholder, PROSE_STOP_WORDS } from './secret-values.ts'
import { mayHoldUrlCredentials, redactUrlCredentials } from './url-credentials.ts'

/**
 * Anything a rule below could match holds one of these (case-insensitive); a URL's password has
 * its own test (mayHoldUrlCredentials). Ordinary text without them costs one scan; this runs on
 * every Stop hook and for every closing message and bookmark SessionStart shows. `pass`, `pwd`,
 * `auth`, `credential` and `sig` matter only in a name given a value (ASSIGNMENT; PROSE wants
 * `passw…`/`passp…`), so "tests pass" costs no more than that scan. Such a name is read backwards
 * from its separator: read forwards from each word, a run of `authauth…` was quadratic. Tested on
 * the text in lower case: a case-insensitive regular expression this size takes twice as long to
 * compile, and every hook compiles it afresh.
 */
const MIGHT_HOLD_A_SECRET =
  /sk-|sk[0-9a-f]|pypi-age|dckr_pat_|shp(?:at|ss|ca|pa)_|do[opr]_v1_|hv[sbr]\.|age-secret-key-1|[sr]k_(?:live|test)|whsec_|smn_|npm_|glpat-|hf_|sg\.|gh[pousr]_|github_pat_|akia|asia|xox[abprs]-|hooks\.slack|aiza|eyj|-----begin|key|token|secret|passw|passp|[:=](?<=(?:pass|pwd|auth|credential|sig)[\w.-]*["']?[ \t]*.)|bearer|basic|twilio|:aa|cookie|mysql|mariadb|curl|lin_api_|gsk_|sbp_|:(?:\d{1,5}|\*):|echo|identified|securestring|lftp|"-|<\/|sshpass|login|mongo|redis-cli|rabbitmqctl|\d> ?auth|smbclient|rpcclient|smbmap|config|define\(|sqlcmd|ldap|ssh-keygen|openssl|-pass|storepass|keypass|htpasswd|ya29\.|private-lines|\.[\w-]{6}\.(?<=m[a-z0-9]{23,27}\.[\w-]{6}\.)/

/**
 * `aws_secret_access_key = <40 chars>` and its spellings, in config files and in prose. Spaces
 * around the separator are bounded: each unbounded run was read again for each way to end the name.
 */
const AWS_SECRET =
  /(aws[\w -]{0,20}?secret[\w -]{0,20}?["']?\s{0,32}(?:[:=]|\bis\b)\s{0,32}["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi

/**
 * A 40-character AWS secret key a few words after "secret" or "aws" ("configured AKIA… with
 * secret wJalr…"): mixed case and digits, so a 40-hex git SHA is never one.
 */
const AWS_SECRET_NEAR =
  /((?:secret|aws)[^\n]{0,40}?)(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi

/**
 * A `Cookie:` or `Set-Cookie:` header (an HTTP dump, `curl -H`): group 1 the header name, 2 its
 * value up to the line's end or a quote. Each cookie's value is redacted; attributes are kept.
 */
const COOKIE_HEADER = /(?<![\w-])((?:set-)?cookie:[ \t]*)([^\r\n'"]+)/gi

/** Set-Cookie attributes: not secrets. */
const COOKIE_ATTRIBUTES =
  /^(?:path|domain|expires|max-age|samesite|secure|httponly|priority|partitioned)$/i

/** `name=value` pairs of a cookie header's value, the value redacted unless it is short. */
function redactCookieHeader(_match: string, lead: string, value: string): string {
  const pairs = value.replace(
    /(?<![^\s;])([^\s;=]+)=([^;\s]*)/g,
    (pair, name: string, cookie: string) =>
      COOKIE_ATTRIBUTES.test(name) || cookie.length < 8 || isPlaceholder(cookie)
        ? pair
        : `${name}=${redactionMarker('cookie')}`,
  )
  return `${lead}${pairs}`
}

/** `Authorization: Basic <base64 of user:password>`. */
const BASIC_AUTH = /\b(basic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi

/** `Authorization: Bearer <token>` and the like. */
const BEARER = /\b(bearer\s+)([A-Za-z0-9._~+/-]{16,}=*)/gi

/**
 * `my token is 3f9a...`, `password is hunter2`, `api key 9f8e...`: the word, then the value. Not
 * `pwd`, which in prose is the shell command printing a folder.
 */
const PROSE =
  /\b(passwords?|passwd|passphrase|tokens?|secrets?|keys?)([ \t]+(?:is|was)(?::[ \t]*|[ \t]+)|[ \t]*[:=][ \t]*|[ \t]+)((?:[^\s,;'"`)\]}\\]|\\{1,2}(?![nrtu"'\s\\]|$))+)/gi

/**
 * What ends the text before a `.netrc` password: `login <user>` after `machine <host>` or
 * `default`, or starting a line, with the password on the same line or the next. Not any `login`:
 * "the login form password input" names no password.
 */
const NETRC_LOGIN =
  /(?:\bmachine[ \t]+\S+[ \t]+|\bdefault[ \t]+|(?:^|\n)[ \t]*)login[ \t]+\S+(?:[ \t]+|[ \t]*\r?\n[ \t]*)$/

/**
 * A base64 run short enough to be a secret (a Kubernetes Secret's `data:`, a `.dockerconfigjson`,
 * an `echo … | base64` in tool output); longer runs are images and archives.
 */
const BASE64_RUN = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{24,2048}={0,2}(?![A-Za-z0-9+/=])/g

/**
 * `text` with every secret it holds replaced by a marker; text without one comes back as is.
 * `knownSecrets` are exact values to remove whatever their format (a provider's own key, which a
 * provider could echo into an error): each one of 4 or more characters becomes `[redacted]` first.
 */
export function redactSecrets(
  text: string,
  knownSecrets: readonly (string | undefined)[] = [],
): string {
  let known = text
  for (const secret of knownSecrets) {
    if (secret !== undefined && secret.length >= 4) known = known.split(secret).join('[redacted]')
  }
  // A zero-width character inside a key, a key percent-encoded in a URL and a token wrapped over
  // two lines are undone first (secret-disguises.ts); text that holds no secret comes back as is.
  const visible = withoutInvisibleCharacters(known)
  let out = redactPercentEncoded(visible, redactPlainSecrets)
  out = redactPlainSecrets(out)
  if (/[A-Za-z0-9+/]{24}/.test(out)) out = out.replace(BASE64_RUN, redactBase64Run)
  return out === visible ? known : out
}

/** The run redacted whole when it decodes to printable text that holds a secret. */
function redactBase64Run(run: string): string {
  const decoded = base64Decoded(run)
  if (decoded === null || !/^[\t\n\r -~]+$/.test(decoded)) return run
  // Decoded in full (base64 inside base64, as a `.dockerconfigjson` holds one): each level is a
  // quarter shorter, so this ends.
  return redactSecrets(decoded) === decoded ? run : redactionMarker('base64 of a secret')
}

/**
 * What the base64 run `value` (alphabet characters, then at most two `=`) decodes to; null when
 * atob would throw, told by the length first: a throw per run costs more than the run's scan.
 */
function base64Decoded(value: string): string | null {
  const padded = value.length % 4 === 0
  if (!padded && (value.endsWith('=') || value.length % 4 === 1)) return null
  try {
    return atob(value)
  } catch {
    return null
  }
}

/** redactSecrets without the base64 step. */
function redactPlainSecrets(text: string): string {
  if (!MIGHT_HOLD_A_SECRET.test(text.toLowerCase()) && !mayHoldUrlCredentials(text)) return text
  // Common words pass the test above ("tests pass", "the key point"). Each rule runs only when
  // the text it would scan holds what every match of it needs: a few quick tests instead of
  // fourteen scans, with the same result.
  let out = text
  if (/\n|\\n/.test(out) && (FORMAT_PREFIX.test(out) || /bearer/i.test(out)))
    out = joinWrappedTokens(out, redactPlainSecrets)
  if (FORMAT_PREFIX.test(out))
    for (const rule of FORMAT_RULES) out = out.replace(rule.pattern, formatReplacer(rule))
  if (/aws/i.test(out))
    out = out.replace(AWS_SECRET, (_, lead) => `${lead}${redactionMarker('aws secret access key')}`)
  if (/aws|secret/i.test(out))
    out = out.replace(AWS_SECRET_NEAR, (match, lead: string, value: string) =>
      /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value)
        ? `${lead}${redactionMarker('aws secret access key')}`
        : match,
    )
  out = redactUrlCredentials(out)
  out = redactCommandSecrets(out)
  if (/cookie/i.test(out)) out = out.replace(COOKIE_HEADER, redactCookieHeader)
  if (/basic/i.test(out)) out = out.replace(BASIC_AUTH, redactBasicAuth)
  if (/bearer/i.test(out))
    out = out.replace(BEARER, (match, lead: string, token: string) =>
      isHighEntropy(token) ? `${lead}${redactionMarker('token')}` : match,
    )
  if ((/[:=]/.test(out) || out.includes('define(')) && SECRET_NAME_WORD.test(out))
    out = out.replace(ASSIGNMENT, redactAssignment)
  if (/passw|passp|token|secret|key/i.test(out)) out = out.replace(PROSE, redactProse)
  // A JSON string inside the text (a log line, a config dump, a transcript quoted whole) hides
  // names and values behind escapes (`\"client_secret\": \"…\"`, `\nDB_PASSWORD=`): each is
  // read, redacted and written back escaped.
  if (out.includes('\\')) out = out.replace(JSON_STRING, redactJsonString)
  return out
}

/**
 * A double-quoted string on one line, group 1 its closing quote. One left open is taken to where
 * it stops (group 1 empty) and kept as it is: every `"` inside it is escaped (`\"`), so a string
 * started there stops at the same place, and starting one at each (`\"\"\"…`) is quadratic.
 */
const JSON_STRING = /"(?:[^"\\\n]|\\.)*("?)/g

/**
 * A string literal JSON.parse reads: checked first, since a throw per literal (`"\\a"` repeated
 * all through a text) costs far more than this scan.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON.parse rejects a raw one
const VALID_JSON_STRING = /^"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"$/

/** The JSON string literal `literal` with its text redacted; as it was when it is not JSON. */
function redactJsonString(literal: string, closing: string): string {
  if (closing === '' || !literal.includes('\\') || !VALID_JSON_STRING.test(literal)) return literal
  const value = JSON.parse(literal) as string
  const redacted = redactSecrets(value)
  return redacted === value ? literal : JSON.stringify(redacted)
}

/** Redacts `Basic <value>` when the value is base64 of `user:password`, not a word after "basic". */
function redactBasicAuth(match: string, lead: string, value: string): string {
  const decoded = base64Decoded(value)
  if (decoded === null) return match
  // `user:password`: printable, a colon with text on both sides. Not as one regular expression:
  // `^[ -~]+:[ -~]+$` tries each colon of `::::…` against the rest, quadratic.
  const colon = decoded.indexOf(':', 1)
  return /^[\x20-\x7e]+$/.test(decoded) && colon !== -1 && colon < decoded.length - 1
    ? `${lead}${redactionMarker('basic auth')}`
    : match
}

/** Redacts the value after a password word always, after key/token/secret when it looks random. */
function redactProse(
  match: string,
  word: string,
  separator: string,
  raw: string,
  offset: number,
  text: string,
): string {
  // Anchored at the run's start: `[.,;:]+$` alone tries each position of a long run of dots.
  const value = raw.replace(/(?<![.,;:])[.,;:]+$/, '')
  if (value.startsWith('[redacted') || isPlaceholder(value)) return match
  const trailing = raw.slice(value.length)
  const lower = word.toLowerCase()
  const isPassword = /^(?:passwords?|passwd|passphrase)$/.test(lower)
  const marker = isPassword ? 'password' : lower.replace(/s$/, '')
  const redacted = `${word}${separator}${redactionMarker(marker)}${trailing}`
  if (isHighEntropy(value)) return redacted
  // A bare space is too loose for a password: "password reset flow" names no password. In a
  // `.netrc` (`machine host login me password hunter2`) the login just before says it is one.
  if (!isPassword) return match
  if (separator.trim() === '' && !NETRC_LOGIN.test(text.slice(Math.max(0, offset - 300), offset)))
    return match
  if (PROSE_STOP_WORDS.has(value.toLowerCase())) return match
  return redacted
}

/**
 * The start of `text` that a reader shows (`chars` of it, for a clip), redacted: a long text is
 * redacted only as far as can be shown, plus a margin so a secret near the cut is never left
 * half-redacted. For rendering many records on the hook path.
 */
export function redactShown(text: string, chars: number): string {
  return redactSecrets(
    text.length > chars + SHOWN_MARGIN ? text.slice(0, chars + SHOWN_MARGIN) : text,
  )
}

/** Longer than any secret the rules know, PEM blocks included. */
const SHOWN_MARGIN = 8_192
