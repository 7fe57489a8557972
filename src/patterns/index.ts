/**
 * Pattern learning (seed 002, docs/design/origins.md) as a library: `somnus/patterns`. Encode
 * sessions into domain patterns, consolidate and prune them, crystallize them into skills.
 */
export type { PatternEntry } from './core/pattern-entry.ts'
export {
  createSomnusPatterns,
  type SomnusPatterns,
  type SomnusPatternsOptions,
} from './create-somnus-patterns.ts'
