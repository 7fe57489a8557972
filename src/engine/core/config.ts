/**
 * Somnus settings: the user's `~/.somnus/settings.json`, then the repository's
 * `_agent_context/somnus.json`, then `SOMNUS_*` environment variables, then flags. Every default
 * is the seed's number; a file only needs the keys a user wants to change. A repository's file
 * is attacker text: it never chooses where the user's key and text go (the model, provider URLs
 * and keys) nor the pattern folder; those keys are taken only from the user's own file and the
 * environment (README, "Security").
 */
import * as z from 'zod/mini'
import { SomnusError } from './errors.ts'

/** The settings schema (built on first use: the hand check in resolveConfig answers most files). */
export function buildConfigSchema() {
  return z.object({
    /**
     * `seed`: seed 000's 0-3 buckets and 4/7/10 levels (docs/design/origins.md). `calibrated`:
     * dreamcontext's 0-10 log score.
     */
    scoring: z._default(z.enum(['seed', 'calibrated']), 'seed'),
    /** Transcripts larger than this are not analysed by hooks (seed 000's 50 MB safety cap). */
    transcript_max_bytes: z._default(z.number().check(z.int(), z.positive()), DEFAULTS.transcript),
    /** Characters the SessionStart output may use: Claude Code persists larger output to a file. */
    snapshot_budget_chars: z._default(z.number().check(z.int(), z.positive()), DEFAULTS.budget),
    /** Sessions since the last sleep before the rhythm advisory (seed 001: 5). */
    rhythm_sessions: z._default(z.number().check(z.int(), z.positive()), DEFAULTS.rhythm),
    /** The model that consolidates: `extractive` (offline), `anthropic:<model>`, `openai:<model>`, `claude-cli`. */
    model: z._default(z.string(), 'extractive'),
    /** UserPromptSubmit adds the few memory lines that bear on the prompt (false: never). */
    prompt_recall: z._default(z.boolean(), true),
    anthropic: z._default(
      z.object({ api_key: z.optional(z.string()), base_url: z.optional(z.string()) }),
      () => ({}),
    ),
    openai: z._default(
      z.object({ api_key: z.optional(z.string()), base_url: z.optional(z.string()) }),
      () => ({}),
    ),
  })
}

const DEFAULTS = { transcript: 50 * 1024 * 1024, budget: 10_000, rhythm: 5 }

/** Resolved settings. */
export type Config = z.infer<ReturnType<typeof buildConfigSchema>>

let configSchema: ReturnType<typeof buildConfigSchema> | undefined

/** The environment variables Somnus reads, each overriding its config key. */
const ENV_KEYS: Record<string, keyof Config> = {
  SOMNUS_SCORING: 'scoring',
  SOMNUS_MODEL: 'model',
  SOMNUS_PROMPT_RECALL: 'prompt_recall',
}

/**
 * The keys a repository's `somnus.json` may not set: they decide where the user's API key and
 * session text are sent (`patterns.dir`: where files are written outside the project).
 */
export const USER_ONLY_KEYS = ['model', 'anthropic', 'openai', 'patterns.dir'] as const

/**
 * `settings` (a repository's parsed `somnus.json`) without the USER_ONLY_KEYS, and the ones it
 * named. Anything but a plain object is returned as is, for the schema to word the problem.
 */
export function withoutUserOnlyKeys(settings: unknown): { kept: unknown; ignored: string[] } {
  if (!isPlainObject(settings)) return { kept: settings, ignored: [] }
  const kept: Record<string, unknown> = { ...settings }
  const ignored: string[] = []
  for (const key of ['model', 'anthropic', 'openai']) {
    if (key in kept) {
      delete kept[key]
      ignored.push(key)
    }
  }
  if (isPlainObject(kept.patterns) && 'dir' in kept.patterns) {
    const { dir: _dropped, ...patterns } = kept.patterns
    kept.patterns = patterns
    ignored.push('patterns.dir')
  }
  return { kept, ignored }
}

/** The one warning for a repository file that named user-only keys. */
export function ignoredKeysWarning(filePath: string, ignored: string[]): string {
  return `${filePath} sets ${ignored.map((key) => `"${key}"`).join(', ')}, which a repository may not choose (they decide where your API key and text are sent, or where files are written); ignored. Set them in ~/.somnus/settings.json or the environment (SOMNUS_MODEL, ANTHROPIC_BASE_URL, OPENAI_BASE_URL, SOMNUS_PATTERNS_DIR) instead.`
}

/** The JSON in `text` (null or blank: `{}`), or an INVALID_INPUT error naming `path`. */
export function parseSettingsText(text: string | null, path: string): unknown {
  if (text === null || text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${path} is not valid JSON: fix it or delete it to use the defaults.`,
      { cause: error },
    )
  }
}

/**
 * Builds the settings from the repository file's text (may be null), the user's file (may be
 * null) and the environment. Pure: the caller reads the files. The repository file's USER_ONLY_KEYS
 * are dropped and reported once through `onIgnored`. A malformed file is an error that names the
 * file and the field, never a silent default.
 */
export function resolveConfig(input: {
  fileText: string | null
  filePath: string
  env: Record<string, string | undefined>
  /** `~/.somnus/settings.json`: trusted, every key allowed. */
  userText?: string | null
  userPath?: string
  /** Told which user-only keys the repository file named (they were ignored). */
  onIgnored?: (ignored: string[]) => void
}): Config {
  const userPath = input.userPath ?? '~/.somnus/settings.json'
  const fromUser = parseSettingsText(input.userText ?? null, userPath)
  const { kept, ignored } = withoutUserOnlyKeys(parseSettingsText(input.fileText, input.filePath))
  if (ignored.length > 0) input.onIgnored?.(ignored)
  const merged: Record<string, unknown> = {
    ...(isPlainObject(fromUser) ? fromUser : {}),
    ...(kept as Record<string, unknown>),
  }
  for (const [variable, key] of Object.entries(ENV_KEYS)) {
    const value = input.env[variable]
    if (value !== undefined && value !== '')
      merged[key] = key === 'prompt_recall' ? onOff(value) : value
  }
  const checked = checkConfig(merged)
  if (checked !== undefined) return checked
  configSchema ??= buildConfigSchema()
  const parsed = configSchema.safeParse(merged)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || '(root)'
    throw new SomnusError(
      'INVALID_INPUT',
      `${input.filePath}: "${where}" ${issue?.message ?? 'is invalid'}. Fix the value or remove the key to use the default.`,
      { details: { issues: parsed.error.issues } },
    )
  }
  return parsed.data
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An environment switch as a boolean (`0`, `false`, `off`, `no`: false), or the text as is. */
function onOff(value: string): boolean | string {
  if (/^(0|false|off|no)$/i.test(value.trim())) return false
  if (/^(1|true|on|yes)$/i.test(value.trim())) return true
  return value
}

/** `z.number().check(z.int(), z.positive())` with its default, or `undefined` when unsure. */
function positiveInt(value: unknown, fallback: number): number | undefined {
  if (value === undefined) return fallback
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined
}

/** The provider keys object as the schema returns it (unknown keys dropped), or `undefined`. */
function providerKeys(value: unknown): Config['anthropic'] | undefined {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined
  const out: Config['anthropic'] = {}
  for (const key of ['api_key', 'base_url'] as const) {
    if (!(key in value)) continue
    const item = (value as Record<string, unknown>)[key]
    if (item !== undefined && typeof item !== 'string') return undefined
    out[key] = item
  }
  return out
}

/**
 * The settings as the zod schema returns them, or `undefined` when unsure: then the schema decides
 * and words the problem. Checked by hand because building and running the zod schema costs every
 * hook's start-up a few milliseconds.
 */
function checkConfig(merged: Record<string, unknown>): Config | undefined {
  const scoring = merged.scoring ?? 'seed'
  if (merged.scoring === null || (scoring !== 'seed' && scoring !== 'calibrated')) return undefined
  const model = merged.model === undefined ? 'extractive' : merged.model
  if (typeof model !== 'string') return undefined
  const config = {
    scoring,
    transcript_max_bytes: positiveInt(merged.transcript_max_bytes, DEFAULTS.transcript),
    snapshot_budget_chars: positiveInt(merged.snapshot_budget_chars, DEFAULTS.budget),
    rhythm_sessions: positiveInt(merged.rhythm_sessions, DEFAULTS.rhythm),
    model,
    prompt_recall: merged.prompt_recall === undefined ? true : merged.prompt_recall,
    anthropic: providerKeys(merged.anthropic),
    openai: providerKeys(merged.openai),
  }
  if (typeof config.prompt_recall !== 'boolean') return undefined
  for (const value of Object.values(config)) if (value === undefined) return undefined
  return config as Config
}
