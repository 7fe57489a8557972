/**
 * The brain's entry for `somnus handoffs push` (test/architecture.test.ts ENTRIES), imported only
 * when that command runs, so no other command loads the push plan.
 */
export { brainHandoffs } from './core/push/brain-handoffs.ts'
