/** What `redactSecrets` asks of a name or a value: does it name a secret, does it look like one. */

/** How a name points at a secret: `strong` names always hold one, `weak` ones only when it looks random. */
export interface SecretName {
  marker: string
  strength: 'strong' | 'weak'
}

/** Name parts that say the value is about a secret, not the secret itself (`TOKEN_LIMIT`, `KEY_PATH`). */
const ABOUT_A_SECRET = new Set([
  'count',
  'counts',
  'limit',
  'max',
  'min',
  'length',
  'len',
  'size',
  'budget',
  'usage',
  'type',
  'types',
  'url',
  'uri',
  'path',
  'file',
  'dir',
  'name',
  'names',
  'id',
  'ids',
  'endpoint',
  'header',
  'mode',
  'method',
  'provider',
  'format',
  'prefix',
  'field',
  'env',
  'var',
  'ttl',
  'expiry',
  'expires',
  'expiration',
  'timeout',
  'policy',
  'rotation',
  'strength',
  'reset',
  'label',
  'placeholder',
  'hint',
  'pattern',
  'schema',
  'error',
  'message',
  'input',
  'column',
])

const PASSWORD_PARTS = new Set(['password', 'passwd', 'pwd', 'passphrase'])
/** One-word names that end in a secret word: `apikey`, `accesstoken`, `clientsecret`. */
const JOINED_SECRET_NAME =
  /^(?:api|access|secret|private|auth|refresh|bearer|client|session|signing|master|encryption|app|license|service|id)(?:key|token|secret)$/

/** What the name `NAME` in `NAME = value` says about the value, or null when it names no secret. */
export function namedSecretKind(name: string): SecretName | null {
  const parts = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.\-\s]+/)
    .filter(Boolean)
  // A GCP service-account key file's `private_key_id` names the key: an `_id` that is kept secret.
  if (parts.join('_') === 'private_key_id') return { marker: 'key', strength: 'strong' }
  if (parts.length === 0 || parts.some((part) => ABOUT_A_SECRET.has(part))) return null
  // A signed URL's signature (`sig=`, `X-Amz-Signature=`) grants what a key would until it
  // expires, so it must look random; an Azure `SharedAccessSignature=` is the whole query, `&`
  // and all: not random, yet a secret. A lone `signature` is a method's in code, or the one
  // Claude Code stores with each thinking block: neither grants anything.
  const last = parts.at(-1)
  if (last === 'sig' || (last === 'signature' && parts.length > 1))
    return {
      marker: 'signature',
      strength: parts.includes('access') || parts.includes('amz') ? 'strong' : 'weak',
    }
  // A .NET connection string's `Pwd=`; the shell's is `PWD` (below).
  if (name === 'Pwd') return { marker: 'password', strength: 'strong' }
  // The shell's working directory, not a password.
  if (parts.length === 1 && (parts[0] === 'pwd' || parts[0] === 'oldpwd')) return null
  // `DB_PASS`, `SMTP_PASS`; a lone or leading `pass` is as often a test result.
  const lastPass = parts.length > 1 && parts.at(-1) === 'pass'
  if (lastPass || parts.some((part) => PASSWORD_PARTS.has(part) || part.endsWith('password')))
    return { marker: 'password', strength: 'strong' }
  if (parts.some((part) => part === 'secret' || part === 'secrets' || part.endsWith('secret')))
    return { marker: 'secret', strength: 'strong' }
  if (parts.some((part) => part === 'credential' || part === 'credentials'))
    return { marker: 'credentials', strength: 'strong' }
  const single = parts.length === 1 ? (parts[0] ?? '') : ''
  if (JOINED_SECRET_NAME.test(single))
    return { marker: single.endsWith('token') ? 'token' : 'key', strength: 'strong' }
  const hasToken = parts.includes('token')
  const hasKey = parts.includes('key')
  const hasAuth = parts.includes('auth') || parts.includes('authorization')
  if (!hasToken && !hasKey && !hasAuth) return null
  const marker = hasToken ? 'token' : hasKey ? (parts.includes('api') ? 'api key' : 'key') : 'auth'
  // A lone `key` or `token` is as often a React key or a parser token as a credential.
  return { marker, strength: parts.length === 1 ? 'weak' : 'strong' }
}

/** Values that stand for a secret without being one: `$TOKEN`, `<your-key>`, `***`, `changeme`. */
export function isPlaceholder(value: string): boolean {
  if (value.trim() === '') return true
  if (/^(?:\$|<|\{\{|%|\[redacted|process\.env|os\.environ|import\.meta)/i.test(value)) return true
  if (/^[*x•.…_-]+$/i.test(value)) return true
  // Bounded: a scan starts at each `your` of `your-your-…`, and each read to the end was quadratic.
  return /\byour[_-]?[\w-]{0,64}[_-]?here\b|^<.*>$/i.test(value)
}

/** The value inside its quotes, and the quote (empty when unquoted). */
export function unquote(raw: string): { value: string; quote: string } {
  const first = raw[0] ?? ''
  if ((first === '"' || first === "'" || first === '`') && raw.endsWith(first) && raw.length > 1)
    return { value: raw.slice(1, -1), quote: first }
  return { value: raw, quote: '' }
}

/**
 * True for a value that looks machine-made: 16+ token characters mixing letters and digits with
 * enough variety, and not a word-built identifier (`my-feature-branch-2024`) or a file path.
 */
export function isHighEntropy(value: string): boolean {
  if (value.length < 16 || value.length > 1024) return false
  if (!/^[A-Za-z0-9_\-+/=.~]+$/.test(value)) return false
  if (!/[0-9]/.test(value) || !/[A-Za-z]/.test(value)) return false
  if (/\//.test(value) && /(?:^|\/)[a-z]{3,}(?:\/|$)/i.test(value)) return false
  if (/\.[a-z]{1,5}$/.test(value)) return false
  const pieces = value.split(/[_\-.]+/).filter(Boolean)
  if (pieces.length > 1 && pieces.every((piece) => /^(?:[a-z]+|[A-Z]?[a-z]+|[0-9]+)$/.test(piece)))
    return false
  return shannonBits(value) >= 3
}

/** Bits per character of `value`'s own character distribution. */
function shannonBits(value: string): number {
  const counts = new Map<string, number>()
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1)
  let bits = 0
  for (const count of counts.values()) {
    const share = count / value.length
    bits -= share * Math.log2(share)
  }
  return bits
}

/**
 * Words that follow "password is" / `password:` in prose and code without being a password
 * ("the password is required", `password: string`).
 */
export const PROSE_STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'the',
  'is',
  'was',
  'not',
  'now',
  'still',
  'also',
  'only',
  'never',
  'always',
  'too',
  'in',
  'on',
  'at',
  'of',
  'for',
  'to',
  'and',
  'or',
  'set',
  'unset',
  'stored',
  'saved',
  'hashed',
  'encrypted',
  'hidden',
  'shown',
  'masked',
  'required',
  'optional',
  'missing',
  'empty',
  'wrong',
  'incorrect',
  'correct',
  'invalid',
  'valid',
  'expired',
  'changed',
  'reset',
  'used',
  'needed',
  'provided',
  'given',
  'being',
  'field',
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'none',
  'true',
  'false',
  'any',
  'unknown',
  'str',
  'int',
  'bool',
  'object',
  'this',
  'self',
])
