/** What the hooks need from the world, gathered in one object so tests can swap any part. */
import type { Brain } from '../../app/brain.ts'
import { analyzeSession, brainAt, locateContextRoot, type OpenBrainOptions } from '../../compose.ts'
import type { AnalyzeSession } from '../../ports/session-transcripts.ts'

/** What `runHook` needs from the outside world, injectable for tests. */
export interface HookDependencies {
  /** The context root for `cwd` (walking up), or throws CONTEXT_NOT_FOUND. */
  locateContextRoot(options: Pick<OpenBrainOptions, 'cwd' | 'env'>): string
  /** The brain at a known root. */
  brainAt(root: string, options: Omit<OpenBrainOptions, 'cwd' | 'root'>): Brain
  analyzeSession: AnalyzeSession
}

/** The real adapters: files under `_agent_context`, transcripts on disk. */
export const defaultHookDependencies: HookDependencies = {
  locateContextRoot,
  brainAt,
  analyzeSession,
}
