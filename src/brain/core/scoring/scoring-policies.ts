/** The scoring policies by the name used in `somnus.json` (`"scoring"`) and `SOMNUS_SCORING`. */

import type { ScoringPolicy } from '../../../engine/core/scoring/scoring-policy.ts'
import { calibratedScoringPolicy } from './calibrated-scoring-policy.ts'
import { seedScoringPolicy } from './seed-scoring-policy.ts'

/**
 * The policy called `name`: `seed` (seed 000, the default, docs/design/origins.md) or `calibrated`
 * (dreamcontext 2).
 */
export function scoringPolicyFor(name: 'seed' | 'calibrated'): ScoringPolicy {
  return name === 'calibrated' ? calibratedScoringPolicy : seedScoringPolicy
}
