/**
 * `patterns prune`: drop entries older than the prune age (seed 002: 30 days,
 * docs/design/origins.md), nothing else.
 */
import { censusOfPatterns } from '../core/consolidate-plan.ts'
import { renderPatternFile } from '../core/pattern-entry.ts'
import type { PatternWorkspace } from './pattern-workspace.ts'
import { readPatternFiles } from './read-patterns.ts'

/** What a prune removed (ids) and which files it wrote. */
export interface PruneResult {
  pruned: string[]
  written: string[]
  dryRun: boolean
}

/** Removes entries older than `days` (default: the `prune_days` setting). */
export async function prunePatterns(
  workspace: PatternWorkspace,
  request: { days?: number; dryRun?: boolean } = {},
): Promise<PruneResult> {
  const run = async (): Promise<PruneResult> => {
    const census = censusOfPatterns({
      files: await readPatternFiles(workspace),
      now: workspace.clock.now(),
      pruneDays: request.days ?? workspace.settings.prune_days,
      minOccurrences: workspace.settings.min_occurrences,
    })
    const written: string[] = []
    for (const [domain, file] of census.files) {
      if (!request.dryRun) await workspace.patterns.write(`${domain}.md`, renderPatternFile(file))
      written.push(`${domain}.md`)
    }
    return {
      pruned: census.pruned.map((entry) => entry.id),
      written,
      dryRun: request.dryRun === true,
    }
  }
  return request.dryRun ? run() : workspace.exclusive(run)
}
