/** Use case: the bare debt number (`sleep debt`), for scripts. */
import type { Brain } from './brain.ts'

/** The current sleep debt. */
export async function getSleepDebt(brain: Brain): Promise<number> {
  return (await brain.state.read()).debt
}
