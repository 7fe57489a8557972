/**
 * Secrets with a fixed format (provider keys and tokens, private key blocks, JWTs), each with the
 * marker that replaces it: the first and most specific step of `redactSecrets` (redact-secrets.ts).
 */

/** The marker that replaces a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[redacted: ${kind}]`
}

/** A fixed-format secret: its pattern (global) and the marker's kind. */
export interface FormatRule {
  kind: string
  pattern: RegExp
  /**
   * For a pattern that takes a whole run of token characters (so a scan never starts again inside
   * a run it has read): whether the run, followed by the character `next`, is the secret.
   */
  accept?: (token: string, next: string) => boolean
}

/**
 * Not preceded by a letter or digit, so `task-...` does not start an `sk-` key; a `-` or `_` may
 * come before, as in a file name (`keys-sk-ant-….env`).
 */
const START = '(?<![A-Za-z0-9])'
/** Not followed by a token character, so only whole tokens match. */
const END = '(?![A-Za-z0-9_-])'

/** Known key formats, most specific first (`sk-ant-` before `sk-`). */
export const FORMAT_RULES: readonly FormatRule[] = [
  {
    kind: 'private key',
    // A header wrapped over lines still counts. A block cut short (clipped output) is redacted over
    // its whole lines of base64 (and `Proc-Type:` headers), also when shown with line numbers
    // (`   2→MIIE…`, as Claude Code's Read tool prints a file), quoted (`> MIIE…`) or with its
    // line breaks JSON-escaped, up to a quote closing the string it sits in; the ordinary line
    // after it stays. The search for the END line stops at the next BEGIN: headers without one
    // would each read to the end of the text.
    pattern:
      /-----BEGIN\s+(?:[A-Z0-9]+\s+)*PRIVATE\s+KEY(?:\s+BLOCK)?-----(?:(?:(?!-----BEGIN)[\s\S])*?-----END\s+(?:[A-Z0-9]+\s+)*PRIVATE\s+KEY(?:\s+BLOCK)?-----|(?:[ \t]+[A-Za-z0-9+/=]{16,})*(?:(?:\r?\n|(?:\\{1,3}r)?\\{1,3}n)[ \t]*(?:\d{1,7}(?:\u2192|\t)|[>|\u2502#*]{1,3}[ \t]?)?(?:[A-Za-z0-9+/=]+|[A-Za-z-]+:[ \t]*[A-Za-z0-9,-]+)?(?=[ \t]*(?:\r?\n|\\{1,3}[rn]|$)|[^\x20-\x7e\s]|\.\.\.|\[|\\?['"`]))*)/g,
  },
  {
    // A PuTTY `.ppk` file: the base64 lines after `Private-Lines: N` are the private key; the
    // `Private-MAC:` line after them is not base64 alone, so it ends the block.
    kind: 'private key',
    pattern: /Private-Lines:[ \t]*\d+(?:\r?\n[A-Za-z0-9+/=]+(?![^\r\n]))+/g,
  },
  { kind: 'anthropic key', pattern: new RegExp(`${START}sk-ant-[A-Za-z0-9_-]{20,}${END}`, 'g') },
  {
    // 20 token characters or more holding a digit (`sk-learn-…` names a package). The whole run is
    // taken and judged once: a digit looked for after each `sk-` of `sk-sk-sk-…` is quadratic.
    kind: 'openai key',
    pattern: new RegExp(`${START}sk-[A-Za-z0-9_-]*`, 'g'),
    accept: (token) => token.length >= 23 && /[0-9]/.test(token),
  },
  {
    // A run is taken whole and judged once (`github_pat_github_pat_…-` restarted at each repeat).
    kind: 'github token',
    pattern: new RegExp(`${START}(?:gh[pousr]_[A-Za-z0-9]*|github_pat_[A-Za-z0-9_]*)`, 'g'),
    accept: (token, next) =>
      !/[A-Za-z0-9_-]/.test(next) && token.length >= (token.startsWith('github') ? 33 : 34),
  },
  {
    kind: 'aws access key id',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'slack token',
    pattern: new RegExp(`${START}xox[abprs]-[A-Za-z0-9-]*`, 'g'),
    accept: (token, next) => token.length >= 15 && next !== '_',
  },
  {
    kind: 'slack webhook',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/g,
  },
  { kind: 'google api key', pattern: new RegExp(`${START}AIza[0-9A-Za-z_-]{35}${END}`, 'g') },
  {
    kind: 'stripe key',
    pattern: new RegExp(`${START}(?:[sr]k_(?:live|test)_|whsec_)[0-9A-Za-z]{16,}${END}`, 'g'),
  },
  { kind: 'somnus key', pattern: new RegExp(`${START}smn_[A-Za-z0-9_-]{32,}${END}`, 'g') },
  { kind: 'npm token', pattern: new RegExp(`${START}npm_[A-Za-z0-9]{36}${END}`, 'g') },
  { kind: 'gitlab token', pattern: new RegExp(`${START}glpat-[A-Za-z0-9_-]{20,}${END}`, 'g') },
  { kind: 'linear key', pattern: new RegExp(`${START}lin_api_[A-Za-z0-9]{40}${END}`, 'g') },
  { kind: 'groq key', pattern: new RegExp(`${START}gsk_[A-Za-z0-9]{52}${END}`, 'g') },
  { kind: 'supabase token', pattern: new RegExp(`${START}sbp_[a-f0-9]{40}${END}`, 'g') },
  { kind: 'hugging face token', pattern: new RegExp(`${START}hf_[A-Za-z0-9]{30,}${END}`, 'g') },
  {
    kind: 'sendgrid key',
    pattern: new RegExp(`${START}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}${END}`, 'g'),
  },
  { kind: 'twilio key', pattern: new RegExp(`${START}SK[0-9a-f]{32}${END}`, 'g') },
  { kind: 'pypi token', pattern: new RegExp(`${START}pypi-AgE[A-Za-z0-9_-]{50,}${END}`, 'g') },
  { kind: 'docker token', pattern: new RegExp(`${START}dckr_pat_[A-Za-z0-9_-]{24,}${END}`, 'g') },
  {
    kind: 'shopify token',
    pattern: new RegExp(`${START}shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}${END}`, 'g'),
  },
  { kind: 'digitalocean token', pattern: new RegExp(`${START}do[opr]_v1_[a-f0-9]{64}${END}`, 'g') },
  { kind: 'vault token', pattern: new RegExp(`${START}hv[sbr]\\.[A-Za-z0-9_-]{24,}${END}`, 'g') },
  { kind: 'mailgun key', pattern: new RegExp(`${START}key-[0-9a-f]{32}${END}`, 'g') },
  {
    // A Discord bot token: the bot's id in base64 (digits, so it starts `M`), a timestamp, an HMAC.
    kind: 'discord token',
    pattern: new RegExp(
      `${START}M[A-Za-z0-9]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}${END}`,
      'g',
    ),
  },
  {
    // A Telegram bot token (`<bot id>:AA<33 more>`), also inside `api.telegram.org/bot<token>/`.
    kind: 'telegram token',
    pattern: /(?<![A-Za-z0-9])(?:bot)?\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
  },
  {
    // A Google OAuth access token (`gcloud auth print-access-token`, an OAuth response); a
    // service account's has dots inside (`ya29.c.b0A…`), a sentence's full stop is left out.
    kind: 'google oauth token',
    pattern: new RegExp(
      `${START}ya29\\.(?=[A-Za-z0-9_.-]{20})[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+)*${END}`,
      'g',
    ),
  },
  { kind: 'age key', pattern: new RegExp(`${START}AGE-SECRET-KEY-1[0-9A-Z]{50,64}${END}`, 'g') },
  {
    // The header segment is taken whole (a scan restarted at each `eyJ` of `eyJ-eyJ-…` read to
    // its end every time); the match is a token only when the other two segments follow it.
    kind: 'jwt',
    pattern: new RegExp(
      `${START}eyJ(?=[A-Za-z0-9_-]{8})[A-Za-z0-9_-]*(?:\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,})?`,
      'g',
    ),
    accept: (token) => token.includes('.'),
  },
]

/** The replacement for `rule`'s matches: its marker, or the match itself when `accept` says no. */
export function formatReplacer(rule: FormatRule): (token: string, ...rest: unknown[]) => string {
  const marker = redactionMarker(rule.kind)
  const { accept } = rule
  if (accept === undefined) return () => marker
  // The patterns with `accept` have no groups: the match's offset and the whole text follow it.
  return (token, offset, text) =>
    accept(token, (text as string).charAt((offset as number) + token.length)) ? marker : token
}

/** What every match of a format rule starts with (they are all case-sensitive). */
export const FORMAT_PREFIX =
  /-----BEGIN|Private-Lines:|ya29\.|lin_api_|gsk_|sbp_|key-|:AA|\.[\w-]{6}\.(?<=M[A-Za-z0-9]{23,27}\.[\w-]{6}\.)|sk-|[sr]k_(?:live|test)_|whsec_|smn_|npm_|glpat-|hf_|SG\.|SK[0-9a-f]|pypi-AgE|dckr_pat_|shp(?:at|ss|ca|pa)_|do[opr]_v1_|hv[sbr]\.|AGE-SECRET-KEY-1|gh[pousr]_|github_pat_|AKIA|ASIA|xox[abprs]-|hooks\.slack|AIza|eyJ/
