/** What the built-in providers share in reading their settings: where they live, which wins. */
import { SomnusError } from '../../core/errors.ts'

/** Where a user sets provider keys and URLs (never a repository's somnus.json); error messages point there. */
export const CONFIG_FILE_HINT = '~/.somnus/settings.json'

/**
 * The first non-empty value: a setting from the config file wins over the environment variable,
 * because the file is the more specific, per-project choice. Empty strings count as unset so that
 * `ANTHROPIC_API_KEY=` in a shell does not hide the config value.
 */
export function firstSetting(...values: Array<string | undefined>): string | undefined {
  for (const value of values) {
    if (value !== undefined && value.trim() !== '') return value.trim()
  }
  return undefined
}

/**
 * `base` + `path` after checking that `base` is an http(s) URL: a typo in a base URL is a
 * configuration error to fix, not a network failure to retry.
 */
export function endpointUrl(base: string, path: string, provider: string, hint: string): string {
  let parsed: URL | undefined
  try {
    parsed = new URL(base)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new SomnusError(
      'MODEL_CONFIG',
      `${provider}: the base URL "${base}" is not an http(s) URL. ${hint}`,
    )
  }
  return `${base.replace(/\/+$/, '')}${path}`
}
