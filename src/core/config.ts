/**
 * Somnus settings: `_agent_context/somnus.json`, then `SOMNUS_*` environment variables, then flags.
 * Every default is the seed's number; the file only needs the keys a user wants to change.
 */
import * as z from 'zod/mini'
import { SomnusError } from './errors.ts'

/** The settings file schema. */
export const ConfigSchema = z.object({
  /** `seed`: seed 000's 0-3 buckets and 4/7/10 levels. `calibrated`: dreamcontext's 0-10 log score. */
  scoring: z._default(z.enum(['seed', 'calibrated']), 'seed'),
  /** Transcripts larger than this are not analysed by hooks (seed 000's 50 MB safety cap). */
  transcript_max_bytes: z._default(z.number().check(z.int(), z.positive()), 50 * 1024 * 1024),
  /** Characters the SessionStart output may use: Claude Code persists larger output to a file. */
  snapshot_budget_chars: z._default(z.number().check(z.int(), z.positive()), 10_000),
  /** Sessions since the last sleep before the rhythm advisory (seed 001: 5). */
  rhythm_sessions: z._default(z.number().check(z.int(), z.positive()), 5),
  /** The model that consolidates: `extractive` (offline), `anthropic:<model>`, `openai:<model>`, `claude-cli`. */
  model: z._default(z.string(), 'extractive'),
  anthropic: z._default(
    z.object({ api_key: z.optional(z.string()), base_url: z.optional(z.string()) }),
    () => ({}),
  ),
  openai: z._default(
    z.object({ api_key: z.optional(z.string()), base_url: z.optional(z.string()) }),
    () => ({}),
  ),
})
/** Resolved settings. */
export type Config = z.infer<typeof ConfigSchema>

/** The environment variables Somnus reads, each overriding its config key. */
const ENV_KEYS: Record<string, keyof Config> = {
  SOMNUS_SCORING: 'scoring',
  SOMNUS_MODEL: 'model',
}

/**
 * Builds the settings from the file text (may be null) and the environment. Pure: the caller reads
 * the file. A malformed file is an error that names the file and the field, never a silent default.
 */
export function resolveConfig(input: {
  fileText: string | null
  filePath: string
  env: Record<string, string | undefined>
}): Config {
  let fromFile: unknown = {}
  if (input.fileText !== null && input.fileText.trim() !== '') {
    try {
      fromFile = JSON.parse(input.fileText)
    } catch (error) {
      throw new SomnusError(
        'INVALID_INPUT',
        `${input.filePath} is not valid JSON: fix it or delete it to use the defaults.`,
        { cause: error },
      )
    }
  }
  const merged: Record<string, unknown> = { ...(fromFile as Record<string, unknown>) }
  for (const [variable, key] of Object.entries(ENV_KEYS)) {
    const value = input.env[variable]
    if (value !== undefined && value !== '') merged[key] = value
  }
  const parsed = ConfigSchema.safeParse(merged)
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
