/** The scoring policy a brain is configured with (`somnus.json` "scoring", `SOMNUS_SCORING`). */

import type { ScoringPolicy } from '../../engine/core/scoring/scoring-policy.ts'
import { scoringPolicyFor } from '../core/scoring/scoring-policies.ts'
import type { Brain } from './brain.ts'

/** The brain's scoring policy. */
export function policyOf(brain: Brain): ScoringPolicy {
  return scoringPolicyFor(brain.config.scoring)
}
