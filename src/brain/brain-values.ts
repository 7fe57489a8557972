/**
 * The brain's light entry for surfaces (test/architecture.test.ts ENTRIES): pure core values and
 * types only, so a CLI command or a dashboard reaches the brain's core without loading its I/O.
 */
export { SOMNUS_CLAUDE_FILES } from './core/claude-agent-files.ts'
export { SOMNUS_HOOKS, type SomnusHookEvent } from './core/claude-settings.ts'
export { REM_SLEEP_AGENT } from './core/directive.ts'
export { parseSalience } from './core/ledger.ts'
export type { McpServerCommand } from './core/mcp-config.ts'
export type { SleepRunPlan } from './core/sleep-run/plan-sleep-run.ts'
export type { Bookmark, SessionRecord, SleepHistoryEntry, Trigger } from './core/sleep-state.ts'
export { plural } from './core/snapshot/section-text.ts'
export { shellQuote, somnusCliCommand } from './core/somnus-command.ts'
export type { TaskSummary } from './core/tasks.ts'
