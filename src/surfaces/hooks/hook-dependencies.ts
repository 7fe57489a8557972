/** What the hooks need from the world, gathered in one object so tests can swap any part. */
import { createSomnusHooks, locateBrain } from '../../brain/create-somnus-hooks.ts'
import { type StartDetached, startDetached } from './pattern-jobs.ts'

/** What `runHook` needs from the outside world, injectable for tests. */
export interface HookDependencies {
  /** The context root for `cwd` (walking up), or throws CONTEXT_NOT_FOUND. */
  locateBrain: typeof locateBrain
  /** The hook use cases, bound to the brain at a known root. */
  createSomnusHooks: typeof createSomnusHooks
  /**
   * Starts a detached `somnus patterns ...` run (pattern learning, seed 002,
   * docs/design/origins.md).
   */
  startDetached?: StartDetached
}

/** The real engine: files under `_agent_context`, transcripts on disk. */
export const defaultHookDependencies: HookDependencies = {
  locateBrain,
  createSomnusHooks,
  startDetached,
}
