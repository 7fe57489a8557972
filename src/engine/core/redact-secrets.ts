/**
 * The one redaction step (principle 8, docs/design/principles.md): text from a transcript, a
 * bookmark or a closing message passes through `redactSecrets` before Somnus stores or prints it,
 * so no secret reaches a file that may be committed or a model provider. Each secret becomes a
 * marker naming what was there (`[redacted: github token]`); the text around it is kept.
 */

import {
  joinWrappedTokens,
  redactPercentEncoded,
  withoutInvisibleCharacters,
} from './secret-disguises.ts'
import { FORMAT_PREFIX, FORMAT_RULES, formatReplacer, redactionMarker } from './secret-formats.ts'
import {
  isHighEntropy,
  isPlaceholder,
  namedSecretKind,
  PROSE_STOP_WORDS,
  unquote,
} from './secret-values.ts'
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
  /sk-|sk[0-9a-f]|pypi-age|dckr_pat_|shp(?:at|ss|ca|pa)_|do[opr]_v1_|hv[sbr]\.|age-secret-key-1|[sr]k_(?:live|test)|whsec_|smn_|npm_|glpat-|hf_|sg\.|gh[pousr]_|github_pat_|akia|asia|xox[abprs]-|hooks\.slack|aiza|eyj|-----begin|key|token|secret|passw|passp|[:=](?<=(?:pass|pwd|auth|credential|sig)[\w.-]*["']?[ \t]*.)|bearer|basic|twilio|:aa|cookie|mysql|mariadb|curl|lin_api_|gsk_|sbp_|:(?:\d{1,5}|\*):|echo|identified|securestring|lftp|"-|<\/|sshpass|login|mongo|redis-cli|smbclient|rpcclient|smbmap|config|define\(|sqlcmd|ldap|ssh-keygen|openssl|-pass|storepass|keypass|htpasswd|ya29\.|private-lines|\.[\w-]{6}\.(?<=m[a-z0-9]{23,27}\.[\w-]{6}\.)/

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
 * `mysql -u root -pS3cret` (and mysqldump, mysqladmin, mariadb): the password joined to `-p`. The
 * options are read at most 200 characters past the command, so a text of `mysql`s stays linear.
 */
const MYSQL_PASSWORD =
  /(\b(?:mysql(?:dump|admin)?|mariadb)\b[^\n|;&]{0,200}?(?:[ \t]|"[ \t]*,[ \t]*")-p)([^\s'"$][^\s'"]*|'[^'\n]*'|"[^"\n]*")/gi

/**
 * Each rule below for a command's argument reads a value up to a backslash that starts an escape
 * (`\"`, `\n`): inside a JSON-escaped command the value ends there, and the JSON string step
 * reads the rest unescaped.
 *
 * A password as the argument after a flag whose meaning depends on the command: `-p` is docker
 * login's password but docker run's port, `-a` is redis-cli's password but ssh-keygen's rounds. So
 * each command has its own flags, case-sensitive (`sqlcmd -P` is the password, `-p` prints
 * statistics). Also `gh secret set --body VALUE`, smbclient's `-U user%password`, lftp's `-u
 * user,password`, `mysqladmin password NEW` and PowerShell's `ConvertTo-SecureString "…"`. Read at
 * most 200 characters past the command, as MYSQL_PASSWORD is.
 */
const COMMAND_PASSWORD =
  /(\b(?:sshpass\b[^\n|;&]{0,200}?[ \t]-p[ \t]*|(?:(?:(?:docker|podman|nerdctl|az)[ \t]+login)|mongo(?:sh|dump|restore|import|export)?)\b[^\n|;&]{0,200}?[ \t]-p[ \t]+|redis-cli\b[^\n|;&]{0,200}?[ \t]-a[ \t]+|sqlcmd\b[^\n|;&]{0,200}?[ \t]-P[ \t]+|ldap[a-z]*\b[^\n|;&]{0,200}?[ \t]-w[ \t]+|ssh-keygen\b[^\n|;&]{0,200}?[ \t]-[NP][ \t]+|openssl\b[^\n|;&]{0,200}?[ \t]-k[ \t]+|gh[ \t]+secret[ \t]+set\b[^\n|;&]{0,200}?[ \t](?:-b|--body)(?:[ \t]+|=)|(?:smbclient|rpcclient|smbmap)\b[^\n|;&]{0,200}?[ \t]-U[ \t]*[^\s%'"]+%|lftp\b[^\n|;&]{0,200}?[ \t]-u[ \t]*[^\s,'"]+,|mysqladmin\b[^\n|;&]{0,200}?[ \t]password[ \t]+|ConvertTo-SecureString(?:[ \t]+-String)?[ \t]+))((?:[^\s'"\\$-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")/g

/**
 * `--password VALUE`, `-storepass VALUE`, `-passin pass:VALUE`: a password option with its value
 * as the next argument (`--password=VALUE` is an ASSIGNMENT). `--password-stdin` takes none.
 */
const PASSWORD_OPTION =
  /(?<![\w-])(--?(?:[a-z]+-)*(?:password|passwd|passphrase|pass|storepass|keypass|srcstorepass|deststorepass|passin|passout)[ \t]+(?:pass:)?)((?:[^\s'"\\$<-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")/g

/** `htpasswd -b[nBc…] [file] user password`: the file is left out with -n. */
const HTPASSWD =
  /\b(htpasswd((?:[ \t]+-[A-Za-z]+)+)[ \t]+)((?:[^\s'"\\-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*)([ \t]+)((?:[^\s'"\\-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")(?:([ \t]+)((?:[^\s'"\\-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*"))?/g

/** The password of an HTPASSWD match (`-b` given) redacted. */
function redactHtpasswd(
  match: string,
  lead: string,
  flags: string,
  first: string,
  space: string,
  second: string,
  lastSpace: string | undefined,
  third: string | undefined,
): string {
  if (!/-[A-Za-z]*b/.test(flags)) return match
  const withoutFile = /-[A-Za-z]*n/.test(flags)
  const password = withoutFile ? second : third
  if (password === undefined || isPlaceholder(unquote(password).value)) return match
  const marker = redactionMarker('password')
  return withoutFile
    ? `${lead}${first}${space}${marker}${lastSpace ?? ''}${third ?? ''}`
    : `${lead}${first}${space}${second}${lastSpace}${marker}`
}

/**
 * `echo 'hunter2' | sudo -S …` and the other commands that read a password on their standard
 * input (`docker login --password-stdin`, `passwd --stdin`, `chpasswd`, `vercel env add`, `gh
 * secret set`): the echoed text is the secret, whatever its shape.
 */
const PIPED_PASSWORD =
  /(\becho(?:[ \t]+-[A-Za-z]+)*[ \t]+)((?:[^\s'"\\|$<-]|\\(?![\\"'nrtu]))(?:[^\s'"\\|;&]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")(?=[ \t]*\|[ \t]*(?:sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*S\b|(?:docker|podman|nerdctl)[ \t]+login\b|passwd\b|chpasswd\b|(?:vercel|netlify)[ \t]+env[ \t]+(?:add|set)\b|(?:gh|wrangler)[ \t]+secret\b|fly[ \t]+secrets\b))/g

/** A PIPED_PASSWORD match with the echoed text redacted, unless it is a placeholder. */
function redactPipedPassword(match: string, lead: string, raw: string): string {
  const { value, quote } = unquote(raw)
  return isPlaceholder(value) ? match : `${lead}${quote}${redactionMarker('password')}${quote}`
}

/**
 * `<password>hunter2</password>` (Maven's settings.xml, a .NET or Spring XML config): an element
 * on one line whose name says it holds a secret. Content stops at `<`, so each start reads no
 * further than the next tag.
 */
const XML_ELEMENT = /<([A-Za-z_][\w.-]*)>([^<\n]{1,1024})<\/\1>/g

/** An XML_ELEMENT redacted as the same `NAME=VALUE` would be (redactAssignment). */
function redactXmlElement(match: string, name: string, value: string): string {
  const inner = `${name}>${value}`
  const redacted = redactAssignment(inner, name, '>', value)
  return redacted === inner ? match : `<${redacted}</${name}>`
}

/**
 * An option and its value in a JSON argument list (`"args": ["--api-key", "…"]`, an MCP server's
 * config): group 1 up to the value's quote, 2 the option's name, 3 the value. Each start reads to
 * the next quote at most.
 */
const JSON_ARGUMENT = /("--?([A-Za-z][\w-]*)"[ \t]*,[ \t]*")([^"\\\n]+)(?=")/g

/** A JSON_ARGUMENT value redacted as the same `NAME="VALUE"` would be (redactAssignment). */
function redactJsonArgument(match: string, lead: string, name: string, value: string): string {
  const setting = `${name}="${value}"`
  return redactAssignment(setting, name, '=', `"${value}"`) === setting
    ? match
    : `${lead}${redactionMarker(namedSecretKind(name)?.marker ?? 'secret')}`
}

/**
 * A `.pgpass` line, `host:port:database:user:password` (port digits or `*`): group 1 the first
 * four fields, 2 the password. A host has no `/`, so a path's `src/a.ts:12:5:…` is none.
 */
const PGPASS_LINE =
  /(?<![^\s'"])((?:[A-Za-z0-9.-]+|\*):(?:\d{1,5}|\*):[^\s:'"]+:[^\s:'"]+:)((?:[^\s'"\\]|\\(?![\\"'nrtu]))+)(?=[\s'"\\]|$)/g

/** A PGPASS_LINE's password redacted when its user is a name (`12:34:56:78:90` is a time). */
function redactPgpassLine(match: string, fields: string, raw: string): string {
  const user = fields.slice(0, -1).split(':').at(-1) ?? ''
  return /[A-Za-z*]/.test(user) ? redactPasswordArgument(match, fields, raw) : match
}

/**
 * A password in SQL: `WITH PASSWORD '…'` (PostgreSQL), `IDENTIFIED BY '…'` (MySQL, Oracle),
 * `SET PASSWORD FOR 'u'@'h' = '…'`. Only a quoted literal: "password 'reset' flow" is rare enough.
 */
const SQL_PASSWORD =
  /\b((?:password(?:[ \t]+for[ \t]+[^\s=]{1,200})?|identified(?:[ \t]+with[ \t]+\w+)?[ \t]+by)[ \t]*(?:=[ \t]*)?')([^'\n]+)(?=')/gi

/** A SQL_PASSWORD literal redacted unless it is a placeholder. */
function redactSqlPassword(match: string, lead: string, value: string): string {
  return isPlaceholder(value) ? match : `${lead}${redactionMarker('password')}`
}

/**
 * `npm config set NAME VALUE`, `aws configure set NAME VALUE`, `git config [--global] NAME VALUE`,
 * a Dockerfile's `ENV NAME VALUE`, fish's `set -gx NAME VALUE` (with a flag: "set" alone is a
 * word): group 1 the command, 2 the setting's name, 3 the space, 4 its value.
 */
const CONFIG_SET =
  /(\b(?:(?:npm|pnpm|yarn)[ \t]+config[ \t]+set|aws[ \t]+configure[ \t]+set|git[ \t]+config(?:[ \t]+--[a-z-]+)*|ENV|set(?:[ \t]+-[a-zA-Z]+)+)[ \t]+)([^\s'"=]+)([ \t]+)((?:[^\s'"\\$<-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")/g

/** A CONFIG_SET value redacted as the same `NAME=VALUE` would be (redactAssignment). */
function redactConfigSet(
  match: string,
  command: string,
  name: string,
  space: string,
  raw: string,
): string {
  const setting = `${name}${space}${raw}`
  const redacted = redactAssignment(setting, name, space, raw)
  return redacted === setting ? match : `${command}${redacted}`
}

/**
 * A password argument (COMMAND_PASSWORD, PASSWORD_OPTION) redacted unless it is a placeholder,
 * names where the password is (`env:VAR`, `file:path`) or, unquoted, is letters alone: prose
 * ("the --password flag") more often than a password.
 */
function redactPasswordArgument(match: string, lead: string, raw: string): string {
  const { value, quote } = unquote(raw)
  if (isPlaceholder(value) || /^(?:env|file|fd):/.test(value)) return match
  if (quote === '' && /^[A-Za-z]+[.,:]?$/.test(value)) return match
  return `${lead}${quote}${redactionMarker('password')}${quote}`
}

/**
 * `curl -u user:password` (`--user`, `-uuser:password`, quoted): the password after the colon.
 * Read at most 300 characters past `curl`, as MYSQL_PASSWORD is; `$PASS` and the like are kept.
 */
const CURL_USER =
  /(\bcurl\b[^\n|;&]{0,300}?[ \t](?:-u[ \t]*|--user(?:[ \t]+|=))['"]?[^\s'":]+:)([^\s'"]+)/gi

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
 * `NAME = value`, `NAME: value`, `"name": "value"`, `export NAME=value`, PHP's
 * `define('NAME', 'value')` (wp-config.php), `os.environ["NAME"] = value`: group 1 the name (with
 * any quotes), 2 the separator, 3 the value (quoted, or up to a space or a closing bracket). An
 * unquoted value runs over a backslash (`abc\\def`) but stops at one that starts an escape (`\\n`
 * in JSON-escaped text, where the next name begins). Only
 * names holding a secret word match, so `login: password: x` leaves `password` to its own match.
 */
const ASSIGNMENT =
  /(?<![\w$./\\-])(?=["']?[\w.-]*?(?:[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Pp][Aa][Ss][Ss]|[Pp][Ww][Dd]|[Cc][Rr][Ee][Dd][Ee][Nn][Tt][Ii][Aa][Ll]|[Aa][Uu][Tt][Hh]|[Ss][Ii][Gg]))(["']?[A-Za-z_][\w.-]*(?:["']\]?)?)([ \t]*(?::=|=|:|,(?<=\bdefine\([ \t]*["'][\w.-]*["'][ \t]*,))[ \t]*)(?![=>])("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`$\n]*`|(?:[^\s,;'"`)\]}\\]|\\{1,2}(?![nrtu"'\s\\]|$))+)/g

/** What every name ASSIGNMENT matches holds (its lookahead, case-insensitive). */
const SECRET_NAME_WORD = /key|token|secret|pass|pwd|credential|auth|sig/i

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
  if (/curl/i.test(out))
    out = out.replace(CURL_USER, (match, lead: string, value: string) =>
      isPlaceholder(value) ? match : `${lead}${redactionMarker('password')}`,
    )
  if (/mysql|mariadb/i.test(out))
    out = out.replace(MYSQL_PASSWORD, (match, lead: string, value: string) =>
      isPlaceholder(unquote(value).value) ? match : `${lead}${redactionMarker('password')}`,
    )
  if (
    /sshpass|login|mongo|redis-cli|sqlcmd|ldap|ssh-keygen|openssl|secret|smb|rpcclient|lftp|mysqladmin|ConvertTo-SecureString/.test(
      out,
    )
  )
    out = out.replace(COMMAND_PASSWORD, redactPasswordArgument)
  if (/-pass|-storepass|-keypass/.test(out))
    out = out.replace(PASSWORD_OPTION, redactPasswordArgument)
  if (/htpasswd/.test(out)) out = out.replace(HTPASSWD, redactHtpasswd)
  if (/config|ENV|set/.test(out)) out = out.replace(CONFIG_SET, redactConfigSet)
  if (out.includes('"-')) out = out.replace(JSON_ARGUMENT, redactJsonArgument)
  if (/:(?:\d{1,5}|\*):/.test(out)) out = out.replace(PGPASS_LINE, redactPgpassLine)
  if (/password|identified/i.test(out)) out = out.replace(SQL_PASSWORD, redactSqlPassword)
  if (/echo/.test(out) && out.includes('|')) out = out.replace(PIPED_PASSWORD, redactPipedPassword)
  if (out.includes('</')) out = out.replace(XML_ELEMENT, redactXmlElement)
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

/** Redacts one `NAME = value` match when the name says it holds a secret and the value is one. */
function redactAssignment(match: string, name: string, separator: string, raw: string): string {
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
