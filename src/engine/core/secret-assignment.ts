/**
 * Secrets given a name: `NAME = value` and its spellings (ASSIGNMENT), judged by the name's kind
 * and the value's shape (redactAssignment). Used by redactSecrets and by the command rules that
 * read a setting the same way (command-secrets.ts).
 */
import { redactionMarker } from './secret-formats.ts'
import {
  isHighEntropy,
  isPlaceholder,
  namedSecretKind,
  PROSE_STOP_WORDS,
  unquote,
} from './secret-values.ts'

/**
 * `NAME = value`, `NAME: value`, `"name": "value"`, `export NAME=value`, PHP's
 * `define('NAME', 'value')` (wp-config.php), `os.environ["NAME"] = value`: group 1 the name (with
 * any quotes), 2 the separator, 3 the value (quoted, or up to a space or a closing bracket). An
 * unquoted value runs over a backslash (`abc\\def`) but stops at one that starts an escape (`\\n`
 * in JSON-escaped text, where the next name begins). Only
 * names holding a secret word match, so `login: password: x` leaves `password` to its own match.
 */
export const ASSIGNMENT =
  /(?<![\w$./\\-])(?=["']?[\w.-]*?(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Pp][Aa][Ss][Ss]|[Pp][Ww][Dd]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll]|[Aa][Uu][Tt][Hh]|[Ss][Ii][Gg]))(["']?[A-Za-z_][\w.-]*(?:["']\]?)?)([ \t]*(?::=|=|:|,(?<=\bdefine\([ \t]*["'][\w.-]*["'][ \t]*,))[ \t]*)(?![=>])("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`$\n]*`|(?:[^\s,;'"`)\]}\\]|\\{1,2}(?![nrtu"'\s\\]|$))+)/g

/** What every name ASSIGNMENT matches holds (its lookahead, case-insensitive). */
export const SECRET_NAME_WORD = /key|token|secret|pass|pwd|credential|auth|sig/i

/** Redacts one `NAME = value` match when the name says it holds a secret and the value is one. */
export function redactAssignment(
  match: string,
  name: string,
  separator: string,
  raw: string,
): string {
  const kind = namedSecretKind(name.replace(/["'\]]/g, ''))
  if (kind === null) return match
  const { value, quote } = unquote(raw)
  if (isPlaceholder(value)) return match
  // `print("Password:", "abc")`: the name's string is still open, so the separator is inside it
  // and the quote after it closes that string; what follows is no value of this name.
  if (/^["']/.test(name) && !/["']\]?$/.test(name) && raw.startsWith(name.charAt(0))) return match
  // `os.environ["DB_PASSWORD"] = password` is code: the value a variable.
  if (name.endsWith(']') && quote === '' && /^[A-Za-z_$][\w$]*$/.test(value)) return match
  // `credentials: password: hunter2` names a second label, not a value: that one has its match.
  // A base64 value padded with one `=` (`UzNjcjN0UGFzc3cwcmQ=`) is no label: it holds a digit.
  if (
    quote === '' &&
    /^[A-Za-z_][\w.-]*[:=]$/.test(value) &&
    (value.endsWith(':') || !/[0-9]/.test(value))
  )
    return match
  const redacted = `${name}${separator}${quote}${redactionMarker(kind.marker)}${quote}`
  if (kind.strength === 'weak') return isHighEntropy(value) ? redacted : match
  if (quote !== '') return redacted
  // Unquoted: in code this is an expression (`options.password`, `meta[:key]`, an atom `:name`,
  // `string`), in config a value.
  if (!/^[\w+/=~!@#%^*-]/.test(value) || !/[A-Za-z0-9]/.test(value)) return match
  if (/[()[\]{}]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value))
    return match
  if (PROSE_STOP_WORDS.has(value.toLowerCase())) return match
  // A file path (`fix-the-auth-bug: _agent_context/state/fix-the-auth-bug.md`) is no secret.
  if (/^[~.]?[\w.-]*\/(?:[\w.-]+\/)*[\w-]+\.[A-Za-z]{1,5}$/.test(value)) return match
  const envStyle = /^["']?[A-Z][A-Z0-9_]*["']?$/.test(name)
  // `apiKey = key` in code is a variable; `API_KEY=abc` and `password: hunter` are values.
  if (!envStyle && kind.marker !== 'password' && /^[A-Za-z_$]+$/.test(value)) return match
  return redacted
}
