/**
 * A whole file's text with every secret redacted, whatever wrote it: the last step before a brain
 * document reaches the disk. Markdown and other text go through `redactSecrets`; JSON is redacted
 * string by string and written back in its own indentation, so a marker never breaks an escape.
 */
import { redactSecrets } from './redact-secrets.ts'

/** `text`, to be stored at `path`, without a secret; the same string when it held none. */
export function redactDocument(path: string, text: string): string {
  if (!/\.jsonl?$/i.test(path)) return redactSecrets(text)
  if (/\.jsonl$/i.test(path))
    return text
      .split('\n')
      .map((line) => redactJson(line))
      .join('\n')
  return redactJson(text)
}

/** One JSON text with its strings redacted; text that is not JSON is redacted as text. */
function redactJson(text: string): string {
  if (redactSecrets(text) === text) return text
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return redactSecrets(text)
  }
  const indent = /^[[{]\r?\n([ \t]+)/.exec(text)?.[1] ?? ''
  const trailing = /\s*$/.exec(text)?.[0] ?? ''
  return `${JSON.stringify(redactStrings(value), null, indent || undefined)}${trailing}`
}

function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value)
  if (Array.isArray(value)) return value.map(redactStrings)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [redactSecrets(key), redactStrings(inner)]),
  )
}
