/**
 * How Claude runs Somnus. Every command Somnus tells Claude to run (the SessionStart directive and
 * snapshot, the rem-sleep agent, the skill) must work where Somnus is a dev dependency, so that
 * `somnus` is not on PATH: the hooks already call this install by absolute path, and the commands
 * Claude is told to run do the same. The plugin's own files name its wrapper script instead,
 * which Claude Code fills in (`${CLAUDE_PLUGIN_ROOT}` is expanded in plugin agents and skills).
 */

/**
 * How the plugin's agent and skill spell the Somnus command: Claude Code replaces the variable
 * with the plugin's folder, and `scripts/somnus` finds the Somnus install (plugin/README.md).
 */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands it, not JavaScript
export const PLUGIN_SOMNUS_COMMAND = '"${CLAUDE_PLUGIN_ROOT}/scripts/somnus"'

/** Double quotes, with the characters a POSIX shell still expands inside them escaped. */
export function shellQuote(path: string): string {
  return `"${path.replace(/["\\$`]/g, (character) => `\\${character}`)}"`
}

/**
 * `"<node>" "<package>/bin/somnus.js"`: this very install, run by the node that runs it, both by
 * absolute path, as the hooks are (no PATH, no npx, nothing fetched).
 */
export function somnusCliCommand(nodePath: string, packageRoot: string): string {
  return `${shellQuote(nodePath)} ${shellQuote(`${packageRoot.replace(/[\\/]+$/, '')}/bin/somnus.js`)}`
}

/**
 * The text with every inline-code command that starts with `somnus ` (`` `somnus sleep status` ``)
 * starting with `command` instead. Only code spans change: prose that names Somnus stays as is.
 */
export function withSomnusCommand(text: string, command: string): string {
  if (command === 'somnus') return text
  return text.replaceAll('`somnus ', `\`${command} `)
}

/** The plugin's text with its wrapper command replaced by `command` (for a project install). */
export function withProjectCommand(pluginText: string, command: string): string {
  return pluginText.replaceAll(PLUGIN_SOMNUS_COMMAND, command)
}
