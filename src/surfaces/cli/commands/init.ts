/** `somnus init [dir]`: create the brain and wire the Claude Code hooks (or explain the plugin). */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import type { Command } from 'commander'
import type { McpServerCommand } from '../../../brain/brain-values.ts'
import {
  SOMNUS_CLAUDE_FILES,
  SOMNUS_HOOKS,
  type SomnusHookEvent,
  shellQuote,
  somnusCliCommand,
} from '../../../brain/brain-values.ts'
import { locateBrain, recordInstall, somnusPackageRoot } from '../../../brain/create-somnus.ts'
import type { InitBrainResult } from '../../../brain/index.ts'
import { CONTEXT_DIR_NAME } from '../../../engine/core/brain-layout.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `init` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('init')
    .description(
      'Create _agent_context/ (core files, tasks, knowledge, sleep ledger), wire the Claude Code hooks and install the somnus-rem-sleep agent and the somnus skill',
    )
    .argument('[dir]', 'the project folder (default: the current folder)')
    .option(
      '--plugin',
      'write no hooks, agent or skill: print how to install the Somnus Claude Code plugin instead',
    )
    .option('--force', 'create the brain even when a folder above already has one')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Existing files are never overwritten: a second run only adds what is missing. The hooks go into
<dir>/.claude/settings.json next to whatever is there; each runs this Somnus install by absolute path.
The MCP server (\`somnus mcp\`: recall, read, bookmark, sleep_status) goes into <dir>/.mcp.json beside
the servers already there, by the same absolute path; a later init refreshes its entry.
The sub-agent that SessionStart tells Claude to dispatch goes to .claude/agents/somnus-rem-sleep.md
and the skill to .claude/skills/somnus/SKILL.md; every somnus command in them (and in the
SessionStart output) is this install's absolute command, so it runs without somnus on PATH (npm i -D).
A later init refreshes them (a new version, a moved install) unless you edited them: then it leaves
them and says so.

Examples:
  somnus init                 brain + hooks in the current project
  somnus init ../my-app       another project
  somnus init --plugin        brain only; use the Claude Code plugin for the hooks`,
    )
    .action(
      async (
        dir: string | undefined,
        options: { plugin?: boolean; force?: boolean; json?: boolean },
      ) => {
        const projectDir = resolve(io.cwd, dir ?? '.')
        const root =
          dir === undefined && io.env.SOMNUS_CONTEXT_DIR
            ? resolve(io.cwd, io.env.SOMNUS_CONTEXT_DIR)
            : join(projectDir, CONTEXT_DIR_NAME)
        if (!options.force) refuseNestedBrain(root, io.env)
        const packageRoot = findPackageRoot()
        const somnus = await openSomnus(io, { contextDir: root })
        const result = await somnus.init({
          templates: readTemplates(join(packageRoot, 'templates', 'init')),
          hookCommand: options.plugin ? null : hookCommandFor(packageRoot),
          claudeFiles: options.plugin
            ? null
            : {
                pluginTexts: readPluginTexts(join(packageRoot, 'plugin')),
                somnusCommand: somnusCliCommand(process.execPath, packageRoot),
              },
          mcpServer: options.plugin ? null : mcpServerFor(packageRoot),
        })
        if (!options.plugin && !existsSync(join(packageRoot, 'dist', 'hook.cjs'))) {
          result.warnings.push(
            `${join(packageRoot, 'dist', 'hook.cjs')} is missing, so the hooks cannot run yet: run \`npm run build\` in ${packageRoot}.`,
          )
        }
        const pluginDir = join(packageRoot, 'plugin')
        const recorded = options.plugin
          ? recordThisInstall(io.env, packageRoot, result.warnings)
          : null
        if (options.json) {
          printJson(io, { ...result, plugin: options.plugin ? pluginDir : null, recorded })
          return
        }
        io.stdout(describe(result, somnus.brain.projectDir, options.plugin ? pluginDir : null))
        if (recorded) io.stdout(`Recorded this install for the plugin's scripts in ${recorded}.\n`)
        for (const warning of result.warnings) io.stderr(`somnus: ${warning}\n`)
      },
    )
}

/**
 * Records this install (node and package folder, absolute) in `~/.somnus/install`, where the
 * plugin's scripts look for Somnus once the plugin is copied into Claude Code's plugin cache: they
 * never run the project's `node_modules/.bin/somnus` (plugin/scripts/find-somnus). Returns the
 * file, or null (with a warning) when the home folder cannot take it.
 */
function recordThisInstall(
  env: Record<string, string | undefined>,
  packageRoot: string,
  warnings: string[],
): string | null {
  try {
    return recordInstall(env, { node: process.execPath, packageRoot: resolve(packageRoot) })
  } catch (error) {
    warnings.push(
      `could not record this install in ~/.somnus/install (${(error as Error).message}): the plugin's scripts will look for somnus on PATH or $SOMNUS_BIN.`,
    )
    return null
  }
}

/** A brain in a folder above would be found first by hooks run there: ask for --force. */
function refuseNestedBrain(root: string, env: Record<string, string | undefined>): void {
  let enclosing: string | null = null
  try {
    enclosing = locateBrain({
      cwd: dirname(root),
      env: { ...env, SOMNUS_CONTEXT_DIR: undefined },
    })
  } catch {
    return
  }
  if (enclosing !== null && resolve(enclosing) !== resolve(root)) {
    throw new SomnusError(
      'CONTEXT_EXISTS',
      `A brain already exists at ${enclosing}, above ${dirname(root)}. Run \`somnus init\` in ${dirname(enclosing)} to use it, or pass --force to create a separate brain here.`,
    )
  }
}

/** The folder of this Somnus install (see somnusPackageRoot); NOT_FOUND outside a package. */
export function findPackageRoot(): string {
  const root = somnusPackageRoot()
  if (root === null) {
    throw new SomnusError('NOT_FOUND', 'Cannot find the Somnus package folder: reinstall somnus.')
  }
  return root
}

/**
 * `"<node>" "<package>/dist/hook.cjs" <verb>`: this very install, no npx, paths quoted. The hook
 * entry itself rather than `bin/somnus.js hook <verb>`, which loads it as a second module: the
 * same hook, ~3 ms sooner on every turn.
 */
export function hookCommandFor(packageRoot: string): (event: SomnusHookEvent) => string {
  const node = shellQuote(process.execPath)
  const entry = shellQuote(join(packageRoot, 'dist', 'hook.cjs'))
  return (event) => {
    const verb = SOMNUS_HOOKS.find((spec) => spec.event === event)?.verb ?? event
    return `${node} ${entry} ${verb}`
  }
}

/** `somnus mcp` of this very install, as Claude Code starts it: node and the CLI by absolute path. */
export function mcpServerFor(packageRoot: string): McpServerCommand {
  return { command: process.execPath, args: [join(packageRoot, 'bin', 'somnus.js'), 'mcp'] }
}

/** The plugin's agent and skill, by their path in the plugin folder; a missing one is left out. */
function readPluginTexts(pluginDir: string): Record<string, string> {
  const texts: Record<string, string> = {}
  for (const file of SOMNUS_CLAUDE_FILES) {
    const path = join(pluginDir, ...file.pluginPath.split('/'))
    if (existsSync(path)) texts[file.pluginPath] = readFileSync(path, 'utf8')
  }
  return texts
}

/** Every template file by its path inside `_agent_context` (`gitignore` ships without its dot). */
export function readTemplates(folder: string): Record<string, string> {
  const templates: Record<string, string> = {}
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) {
        const name = relative(folder, path).split(/[\\/]/).join('/')
        templates[name === 'gitignore' ? '.gitignore' : name] = readFileSync(path, 'utf8')
      }
    }
  }
  walk(folder)
  return templates
}

function describe(result: InitBrainResult, projectDir: string, pluginDir: string | null): string {
  const lines: string[] = []
  if (result.created.length > 0) {
    lines.push(`Created ${result.root}:`, ...result.created.map((path) => `  + ${path}`))
  }
  if (result.updated.length > 0)
    lines.push(...result.updated.map((path) => `  ~ ${path} (added Somnus lines)`))
  if (result.kept.length > 0) {
    const what =
      result.created.length === 0 ? `Already there in ${result.root}` : 'Kept as they were'
    lines.push(
      `${what}: ${result.kept.length} files (${result.kept.slice(0, 6).join(', ')}${result.kept.length > 6 ? ', …' : ''}).`,
    )
  }
  if (pluginDir) {
    lines.push(
      '',
      'No hooks written (--plugin). Use the Somnus Claude Code plugin:',
      `  try it for one session:  claude --plugin-dir "${pluginDir}"`,
      '  install it for good:',
      // The marketplace (.claude-plugin/marketplace.json) is the package root, which lists plugin/.
      `    claude plugin marketplace add "${dirname(pluginDir)}"`,
      '    claude plugin install somnus@somnus',
    )
  } else if (result.hooksChanged) {
    lines.push(`Wired ${result.hookEvents.join(', ')} into ${result.settingsPath}.`)
  } else {
    lines.push(`Hooks already wired in ${result.settingsPath}.`)
  }
  if (!pluginDir)
    lines.push(
      result.mcpChanged
        ? `Registered the Somnus MCP server (recall, read, bookmark, sleep_status) in ${result.mcpPath}.`
        : `MCP server already registered in ${result.mcpPath}.`,
    )
  const claudeChanged = result.claudeFiles.filter(
    (file) => file.action === 'create' || file.action === 'update',
  )
  for (const file of claudeChanged) {
    lines.push(`${file.action === 'create' ? 'Installed' : 'Refreshed'} ${file.path}.`)
  }
  if (
    result.created.length === 0 &&
    result.updated.length === 0 &&
    !result.hooksChanged &&
    !result.mcpChanged &&
    claudeChanged.length === 0
  ) {
    lines.push('Nothing to do.')
  } else {
    lines.push(
      '',
      `Next: fill in core/0.soul.md and core/1.user.md, then start Claude Code in ${projectDir}.`,
    )
  }
  return `${lines.join('\n')}\n`
}
