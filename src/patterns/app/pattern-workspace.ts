/**
 * What pattern learning works on (seed 002, docs/design/origins.md): the project, its user-scope
 * pattern folder, Claude Code's auto memory, the settings and a lock. Built by compose-patterns.ts;
 * the use cases name documents by meaning (a domain's patterns, a skill, CLAUDE.md, MEMORY.md),
 * never by path.
 */

import type { Clock } from '../../engine/ports/clock.ts'
import type { ProjectFiles } from '../../engine/ports/project-files.ts'
import type { PatternSettings } from '../core/pattern-settings.ts'
import type { FolderFiles } from '../ports/folder-files.ts'

/** One project's pattern learning. */
export interface PatternWorkspace {
  /** The project root (git root), where `.claude/skills/` and `CLAUDE.md` are. */
  projectDir: string
  /** Seed 002's project id: 16 hex of SHA-256 of `projectDir`. */
  projectId: string
  /** Where the pattern files are, for messages. */
  patternsDir: string
  /** `<domain>.md` files of this project, in user scope. */
  patterns: FolderFiles
  /** The project folder: `.claude/skills/<name>/SKILL.md` and `CLAUDE.md`. */
  project: ProjectFiles
  /** Claude Code's auto-memory folder (MEMORY.md), or null when auto memory is off. */
  memory: FolderFiles | null
  /** That folder's path, for messages. */
  memoryDir: string | null
  settings: PatternSettings
  clock: Clock
  /** Runs `work` while no other encode or consolidation of this project runs. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
}
