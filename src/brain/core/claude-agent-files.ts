/**
 * The Claude Code files `somnus init` installs into a project beside the hooks: the rem-sleep
 * sub-agent that the SessionStart directive tells Claude to dispatch, and the skill that teaches
 * the main agent to work with Somnus. The plugin's files are the one source of their text; a
 * project install gets them with this install's command, and a fingerprint of what Somnus wrote,
 * so a later `init` can tell its own file (safe to refresh) from one a user edited (left alone).
 */
import { withProjectCommand } from './somnus-command.ts'

/** One file: where it lies in the plugin, and where Claude Code finds it in a project. */
export interface ClaudeAgentFile {
  /** Relative to the plugin folder. */
  pluginPath: string
  /** Relative to the project folder. */
  projectPath: string
}

/** The files `init` installs, as Claude Code looks for them (project agents and skills). */
export const SOMNUS_CLAUDE_FILES: readonly ClaudeAgentFile[] = [
  {
    pluginPath: 'agents/somnus-rem-sleep.md',
    projectPath: '.claude/agents/somnus-rem-sleep.md',
  },
  { pluginPath: 'skills/somnus/SKILL.md', projectPath: '.claude/skills/somnus/SKILL.md' },
]

/** The rem-sleep agent: the file the SessionStart directive has Claude dispatch by name. */
export const SLEEP_AGENT_FILE = SOMNUS_CLAUDE_FILES[0] as ClaudeAgentFile

/**
 * True when the project's copy of the sleep agent (`existing`, null when there is none) may be
 * dispatched. Claude Code runs a project's `.claude/agents/<name>.md` in place of the user's or
 * the plugin's agent of that name, so a repository could plant one and have the directive run
 * its prompt. Trusted: no project copy (the plugin's or the user's agent runs), or a copy that is
 * exactly Somnus's text, as the plugin ships it or as `init` installs it with `command` (this
 * install's) or plain `somnus`. Not trusted: anything else, or any copy when Somnus's own text is
 * unknown (`pluginText` null). The init fingerprint is no proof: anyone can compute it.
 */
export function sleepAgentTrusted(
  existing: string | null,
  pluginText: string | null,
  command: string,
): boolean {
  if (existing === null) return true
  if (pluginText === null) return false
  const normalized = existing.replace(/\r\n/g, '\n')
  return [
    pluginText.replace(/\r\n/g, '\n'),
    installedFileText(pluginText, command),
    installedFileText(pluginText, 'somnus'),
  ].includes(normalized)
}

const MARKER_START = '<!-- Installed by somnus init (fingerprint '
const MARKER = /\n<!-- Installed by somnus init \(fingerprint ([0-9a-f]{14})\)[^\n]*-->\s*$/

/** What `init` does with one file. */
export type InstallAction =
  /** Not there: write it. */
  | 'create'
  /** Already exactly what this install writes. */
  | 'unchanged'
  /** Written by an earlier `init` (another version or install path) and not edited since: refresh. */
  | 'update'
  /** Edited after Somnus wrote it, or not written by Somnus: leave it and say so. */
  | 'edited'

/** The text a project install gets: the plugin's, with `command` in place of the plugin's own. */
export function installedFileText(pluginText: string, command: string): string {
  const body = withProjectCommand(pluginText, command).replace(/\s+$/, '')
  return `${body}\n\n${MARKER_START}${fingerprint(body)}). Edited files are left alone: delete this one and run somnus init again to get the current version. -->\n`
}

/** What to do with the file now at the path (null: none), given the text this install wants there. */
export function installAction(existing: string | null, wanted: string): InstallAction {
  if (existing === null) return 'create'
  const normalized = existing.replace(/\r\n/g, '\n')
  if (normalized === wanted) return 'unchanged'
  const marker = MARKER.exec(normalized)
  if (marker === null) return 'edited'
  const body = normalized.slice(0, marker.index).replace(/\s+$/, '')
  return fingerprint(body) === marker[1] ? 'update' : 'edited'
}

/**
 * A 56-bit FNV-1a style digest in hex: enough to notice an edit, not a security measure (core
 * has no crypto, and nothing here needs one).
 */
function fingerprint(text: string): string {
  let high = 0x811c9dc5
  let low = 0x01000193
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    high = Math.imul(high ^ code, 0x01000193) >>> 0
    low = Math.imul(low ^ code, 0x5bd1e995) >>> 0
  }
  return `${high.toString(16).padStart(8, '0')}${low.toString(16).padStart(8, '0')}`.slice(0, 14)
}
