/**
 * The `patterns` key of `somnus.json`: where pattern files live, the random gates of the hooks and
 * the consolidation thresholds. Defaults are seed 002's numbers (docs/design/origins.md) (Stop
 * encodes 10% of the time and consolidates 5%, three occurrences crystallize, thirty days prune).
 * Checked by hand: it is read on the hook path, where building a zod schema costs milliseconds.
 */
import { SomnusError } from '../../engine/core/errors.ts'

/** Pattern learning settings. */
export interface PatternSettings {
  /** False turns pattern encoding, consolidation and the SessionStart index off. */
  enabled: boolean
  /** The user-scope folder of pattern files; null: `~/.claude/rem/patterns` (seed 002 item 9). */
  dir: string | null
  /** Chance that a Stop encodes the session so far (seed 002 item 2: 10%). */
  stop_encode_chance: number
  /** Chance that a Stop consolidates (seed 002: `RANDOM % 20`, 5%). */
  stop_consolidate_chance: number
  /** Seeds the gates' random numbers (tests, reproducible runs); null: Math.random. */
  gate_seed: number | null
  /** Occurrences a group needs to crystallize into a skill or a CLAUDE.md rule (seed 002: 3). */
  min_occurrences: number
  /** Entries older than this many days are pruned by consolidation (seed 002: 30). */
  prune_days: number
  /** Pattern titles the SessionStart index shows (seed 002 item 1: "last 5 entries"). */
  index_entries: number
}

/** Seed 002's defaults. */
export const DEFAULT_PATTERN_SETTINGS: PatternSettings = {
  enabled: true,
  dir: null,
  stop_encode_chance: 0.1,
  stop_consolidate_chance: 0.05,
  gate_seed: null,
  min_occurrences: 3,
  prune_days: 30,
  index_entries: 5,
}

type Check = (value: unknown) => boolean
const chance: Check = (value) => typeof value === 'number' && value >= 0 && value <= 1
const count: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0
const CHECKS: Record<keyof PatternSettings, [Check, string]> = {
  enabled: [(value) => typeof value === 'boolean', 'must be true or false'],
  dir: [
    (value) => value === null || (typeof value === 'string' && value !== ''),
    'must be a folder path or null',
  ],
  stop_encode_chance: [chance, 'must be a number from 0 to 1'],
  stop_consolidate_chance: [chance, 'must be a number from 0 to 1'],
  gate_seed: [
    (value) => value === null || Number.isSafeInteger(value),
    'must be an integer or null',
  ],
  min_occurrences: [
    (value) => count(value) && (value as number) >= 2,
    'must be an integer of at least 2',
  ],
  prune_days: [
    (value) => count(value) && (value as number) >= 1,
    'must be a whole number of days, at least 1',
  ],
  index_entries: [count, 'must be a whole number (0 hides the index)'],
}

/**
 * The settings from the file's `patterns` value (undefined: all defaults) and the environment
 * (`SOMNUS_PATTERNS_DIR`, `SOMNUS_PATTERNS_GATE_SEED`). A bad value is an error naming the key.
 */
export function resolvePatternSettings(
  value: unknown,
  env: Record<string, string | undefined>,
  filePath: string,
): PatternSettings {
  const settings: PatternSettings = { ...DEFAULT_PATTERN_SETTINGS }
  if (value !== undefined) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new SomnusError(
        'INVALID_INPUT',
        `${filePath}: "patterns" must be an object. Fix the value or remove the key to use the defaults.`,
      )
    }
    for (const [key, item] of Object.entries(value)) {
      const check = CHECKS[key as keyof PatternSettings]
      if (!check) {
        throw new SomnusError(
          'INVALID_INPUT',
          // The key is the repository's text: named only when it is a plain word.
          `${filePath}: ${/^[A-Za-z_]{1,40}$/.test(key) ? `"patterns.${key}" is not a setting` : '"patterns" holds a key that is not a setting'}; known: ${Object.keys(CHECKS).join(', ')}.`,
        )
      }
      if (!check[0](item)) {
        throw new SomnusError(
          'INVALID_INPUT',
          `${filePath}: "patterns.${key}" ${check[1]}. Fix the value or remove the key to use the default.`,
        )
      }
      ;(settings as unknown as Record<string, unknown>)[key] = item
    }
  }
  if (env.SOMNUS_PATTERNS_DIR) settings.dir = env.SOMNUS_PATTERNS_DIR
  const seed = env.SOMNUS_PATTERNS_GATE_SEED
  if (seed !== undefined && seed !== '') {
    if (!/^-?\d+$/.test(seed)) {
      throw new SomnusError(
        'INVALID_INPUT',
        `SOMNUS_PATTERNS_GATE_SEED must be an integer, not "${seed}".`,
      )
    }
    settings.gate_seed = Number(seed)
  }
  return settings
}
