/**
 * The user's own Somnus folder, `~/.somnus/`: trusted, unlike anything in a repository. It holds
 * `settings.json` (the model, provider URLs and keys, the pattern folder: what decides where text
 * and keys go), `install` (the install the plugin's scripts run) and the home hook log.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomicSync } from './atomic-write.ts'

/** `<home>/.somnus`, home from HOME (else the account's home folder). */
export function userSettingsDir(env: Record<string, string | undefined>): string {
  // node:os is loaded only here: HOME is nearly always set, and the hook path counts milliseconds.
  return join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.somnus')
}

/** `~/.somnus/settings.json`: the user's settings (docs: README, "Security"). */
export function userSettingsPath(env: Record<string, string | undefined>): string {
  return join(userSettingsDir(env), 'settings.json')
}

/**
 * Records an install (node and package folder, absolute, one a line) in `~/.somnus/install`,
 * where the plugin's scripts find Somnus once Claude Code has copied the plugin into its cache
 * (plugin/scripts/find-somnus): they never run a project's `node_modules/.bin/somnus`.
 * Returns the file written.
 */
export function recordInstall(
  env: Record<string, string | undefined>,
  install: { node: string; packageRoot: string },
): string {
  const folder = userSettingsDir(env)
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const path = join(folder, 'install')
  writeFileAtomicSync(path, `${install.node}\n${install.packageRoot}\n`)
  return path
}
