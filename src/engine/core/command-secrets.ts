/**
 * Passwords given to commands on their command line or stdin (`curl -u`, `mysql -p`, `sshpass
 * -p`, `--password VALUE`, `htpasswd -b`, `echo pw | sudo -S`, `npm config set`, SQL, a `.pgpass`
 * line, an XML element, a JSON argument list): the command-shaped step of redactSecrets.
 */
import { redactAssignment } from './secret-assignment.ts'
import { redactionMarker } from './secret-formats.ts'
import { isPlaceholder, namedSecretKind, unquote } from './secret-values.ts'

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
 * user,password`, `mysqladmin password NEW`, PowerShell's `ConvertTo-SecureString "…"`, and where
 * only the place says it: `rabbitmqctl add_user USER PASSWORD`, redis `AUTH [USER] PASSWORD`. Read at
 * most 200 characters past the command, as MYSQL_PASSWORD is.
 */
const COMMAND_PASSWORD =
  /(\b(?:sshpass\b[^\n|;&]{0,200}?[ \t]-p[ \t]*|(?:(?:(?:docker|podman|nerdctl|az)[ \t]+login)|mongo(?:sh|dump|restore|import|export)?)\b[^\n|;&]{0,200}?[ \t]-p[ \t]+|redis-cli\b[^\n|;&]{0,200}?[ \t]-a[ \t]+|(?:redis-cli\b[^\n|;&]{0,200}?[ \t]|\d{1,5}>[ \t]*)AUTH[ \t]+(?:[^\s'"]+[ \t]+(?=\S))?|rabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+[^\s'"]+[ \t]+|sqlcmd\b[^\n|;&]{0,200}?[ \t]-P[ \t]+|ldap[a-z]*\b[^\n|;&]{0,200}?[ \t]-w[ \t]+|ssh-keygen\b[^\n|;&]{0,200}?[ \t]-[NP][ \t]+|openssl\b[^\n|;&]{0,200}?[ \t]-k[ \t]+|gh[ \t]+secret[ \t]+set\b[^\n|;&]{0,200}?[ \t](?:-b|--body)(?:[ \t]+|=)|(?:smbclient|rpcclient|smbmap)\b[^\n|;&]{0,200}?[ \t]-U[ \t]*[^\s%'"]+%|lftp\b[^\n|;&]{0,200}?[ \t]-u[ \t]*[^\s,'"]+,|mysqladmin\b[^\n|;&]{0,200}?[ \t]password[ \t]+|ConvertTo-SecureString(?:[ \t]+-String)?[ \t]+))((?:[^\s'"\\$-]|\\(?![\\"'nrtu]))(?:[^\s'"\\]|\\(?![\\"'nrtu]))*|'[^'\n]*'|"[^"\n]*")/g

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

/** A CURL_USER or MYSQL_PASSWORD value redacted unless it is a placeholder (`$PASS`, `<pw>`). */
function redactPasswordValue(match: string, lead: string, value: string): string {
  return isPlaceholder(unquote(value).value) ? match : `${lead}${redactionMarker('password')}`
}

/** `text` with every command-shaped password redacted; each rule runs only when its command is there. */
export function redactCommandSecrets(text: string): string {
  let out = text
  if (/curl/i.test(out)) out = out.replace(CURL_USER, redactPasswordValue)
  if (/mysql|mariadb/i.test(out)) out = out.replace(MYSQL_PASSWORD, redactPasswordValue)
  if (
    /sshpass|login|mongo|redis-cli|AUTH|rabbitmqctl|sqlcmd|ldap|ssh-keygen|openssl|secret|smb|rpcclient|lftp|mysqladmin|ConvertTo-SecureString/.test(
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
  return out
}
