/**
 * `somnus init`: lays out `_agent_context/` from the shipped templates, wires the Claude Code
 * hooks into the project's `.claude/settings.json` and installs the rem-sleep agent and the skill
 * into `.claude/`. Everything is computed first (an invalid settings file stops the run before
 * anything is written); existing files are never overwritten, except an agent or skill file that
 * Somnus wrote and nobody edited since, which is refreshed.
 */

import { type BrainDocument, documentAt, documentPath } from '../../engine/core/brain-layout.ts'
import { utcDay } from '../../engine/core/dates.ts'
import { SomnusError } from '../../engine/core/errors.ts'
import type { ProjectFiles } from '../../engine/ports/project-files.ts'
import {
  type InstallAction,
  installAction,
  installedFileText,
  SOMNUS_CLAUDE_FILES,
} from '../core/claude-agent-files.ts'
import {
  type ClaudeSettings,
  hasSomnusHooks,
  mergeSomnusHooks,
  parseClaudeSettings,
  SOMNUS_HOOKS,
  type SomnusHookEvent,
  somnusPluginEnabled,
} from '../core/claude-settings.ts'
import {
  hasSomnusMcpServer,
  MCP_CONFIG_PATH,
  type McpServerCommand,
  mergeSomnusMcpServer,
} from '../core/mcp-config.ts'
import { freshSleepState } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'

/**
 * The project's Claude Code settings, relative to the project folder: outside the brain, so they
 * are reached through `ProjectFiles`, never through the brain's files (which refuse `..`).
 */
export const CLAUDE_SETTINGS_PATH = '.claude/settings.json'
/** The context folder's own ignore file, merged line by line (its template's name). */
export const GITIGNORE_PATH = '.gitignore'

const IGNORE_RULES: BrainDocument = { kind: 'ignore-rules' }
const LEDGER: BrainDocument = { kind: 'ledger' }

/** What `init` is given. */
export interface InitBrainInput {
  /** Template files by their path inside `_agent_context`; `{{DATE}}` and `{{PROJECT}}` are filled in. */
  templates: Record<string, string>
  /** The command for each hook event, or null to write no hooks (`--plugin`). */
  hookCommand: ((event: SomnusHookEvent) => string) | null
  /** The project folder's own files, where the settings live. */
  projectFiles: ProjectFiles
  /**
   * The plugin's agent and skill, to install into the project's `.claude/` with `somnusCommand`
   * in place of the plugin's own command; absent or null installs none (`--plugin`).
   */
  claudeFiles?: ClaudeFilesInput | null
  /**
   * How Claude Code starts `somnus mcp`, registered in the project's `.mcp.json`; absent or null
   * registers nothing (`--plugin`: the plugin ships its own).
   */
  mcpServer?: McpServerCommand | null
}

/** The plugin's texts by their path in the plugin folder, and the command a project install runs. */
export interface ClaudeFilesInput {
  pluginTexts: Record<string, string>
  /** `"<node>" "<package>/bin/somnus.js"`: how Claude runs this install. */
  somnusCommand: string
}

/** What `init` did. Paths are relative to `_agent_context` (settings: to the project). */
export interface InitBrainResult {
  root: string
  created: string[]
  /** Files that already existed and were left as they were. */
  kept: string[]
  /** Files that existed and gained lines (only `.gitignore`). */
  updated: string[]
  settingsPath: string
  /** True when settings.json was written. */
  hooksChanged: boolean
  /** The project's `.mcp.json`, and whether the Somnus MCP server was added or refreshed in it. */
  mcpPath: string
  mcpChanged: boolean
  /** The events Somnus is wired to (empty with `--plugin`). */
  hookEvents: SomnusHookEvent[]
  /** The agent and skill files in the project's `.claude/`, by path, and what `init` did to each. */
  claudeFiles: { path: string; action: InstallAction }[]
  warnings: string[]
}

/** Creates what is missing of the brain and wires the hooks; safe to run again. */
export async function initBrain(brain: Brain, input: InitBrainInput): Promise<InitBrainResult> {
  const warnings: string[] = []
  const settingsPath = `${brain.projectDir.replace(/[\\/]+$/, '')}/.claude/settings.json`
  // Read first, before anything is made: a `.claude` that is a file, or invalid settings, stop
  // the run with nothing written.
  const settingsText = await input.projectFiles.read(CLAUDE_SETTINGS_PATH)
  let nextSettings: ClaudeSettings | null = null
  if (input.hookCommand) {
    const settings = parseClaudeSettings(settingsText, settingsPath)
    const merged = mergeSomnusHooks(settings, input.hookCommand)
    if (merged.changed) nextSettings = merged.settings
    if (somnusPluginEnabled(settings)) {
      warnings.push(
        `${settingsPath} also enables the Somnus plugin: its hooks and these would both run. Keep one (disable the plugin, or run \`somnus init --plugin\` and remove the Somnus hooks from settings.json).`,
      )
    }
  } else if (settingsText !== null && hasSomnusHooks(safeSettings(settingsText))) {
    warnings.push(
      `${settingsPath} still holds Somnus hooks from an earlier \`somnus init\`: remove them, or they will run beside the plugin's.`,
    )
  }

  const mcpPath = `${brain.projectDir.replace(/[\\/]+$/, '')}/${MCP_CONFIG_PATH}`
  const mcpText = await input.projectFiles.read(MCP_CONFIG_PATH)
  const mcp = input.mcpServer ? mergeSomnusMcpServer(mcpText, mcpPath, input.mcpServer) : null
  if (!input.mcpServer && hasSomnusMcpServer(mcpText)) {
    warnings.push(
      `${mcpPath} still registers the Somnus MCP server from an earlier \`somnus init\`: remove its "somnus" entry, or Claude Code starts it beside the plugin's.`,
    )
  }

  const today = utcDay(brain.clock.now())
  const project = brain.projectDir.split(/[\\/]/).filter(Boolean).pop() ?? 'this project'
  // The templates lie as the brain does (`core/0.soul.md`): each is the document at its path.
  const wanted: Wanted[] = Object.entries(input.templates)
    .filter(([path]) => path !== GITIGNORE_PATH)
    .map(([path, text]) => ({
      path,
      document: templateDocument(path),
      text: text.replaceAll('{{DATE}}', today).replaceAll('{{PROJECT}}', project),
    }))
  wanted.push({
    path: documentPath(LEDGER),
    document: LEDGER,
    text: `${JSON.stringify(freshSleepState(), null, 2)}\n`,
  })
  const existing = await Promise.all(wanted.map((file) => brain.files.read(file.document)))
  const toCreate = wanted.filter((_, index) => existing[index] === null)
  const kept = wanted.filter((_, index) => existing[index] !== null).map((file) => file.path)

  const claudeFiles = await planClaudeFiles(input)
  for (const file of claudeFiles.filter((file) => file.action === 'edited')) {
    warnings.push(
      `${file.path} differs from what Somnus installs (edited, or not written by \`somnus init\`), so it was left as it is; the commands in it may not run in this project. To get the current version, delete it and run \`somnus init\` again.`,
    )
  }

  const gitignoreTemplate = input.templates[GITIGNORE_PATH]
  const gitignore =
    gitignoreTemplate === undefined
      ? null
      : mergeIgnoreLines(await brain.files.read(IGNORE_RULES), gitignoreTemplate)

  for (const file of toCreate) await brain.files.write(file.document, file.text)
  const created = toCreate.map((file) => file.path)
  const updated: string[] = []
  if (gitignore && gitignore.text === null) kept.push(GITIGNORE_PATH)
  if (gitignore && gitignore.text !== null) {
    await brain.files.write(IGNORE_RULES, gitignore.text)
    if (gitignore.existed) updated.push(GITIGNORE_PATH)
    else created.push(GITIGNORE_PATH)
  }
  if (nextSettings)
    await input.projectFiles.write(
      CLAUDE_SETTINGS_PATH,
      `${JSON.stringify(nextSettings, null, 2)}\n`,
    )
  for (const file of claudeFiles) {
    if (file.action === 'create' || file.action === 'update')
      await input.projectFiles.write(file.path, file.text)
  }
  if (mcp?.changed) await input.projectFiles.write(MCP_CONFIG_PATH, mcp.text)

  return {
    root: brain.root,
    created: created.sort(),
    kept: kept.sort(),
    updated,
    settingsPath,
    hooksChanged: nextSettings !== null,
    mcpPath,
    mcpChanged: mcp?.changed === true,
    hookEvents: input.hookCommand ? SOMNUS_HOOKS.map((spec) => spec.event) : [],
    claudeFiles: claudeFiles.map(({ path, action }) => ({ path, action })),
    warnings,
  }
}

/**
 * Each agent or skill file with the text this install wants and what to do about the file there.
 * A plugin text that is missing is an error: the package shipped without its plugin folder.
 */
async function planClaudeFiles(
  input: InitBrainInput,
): Promise<{ path: string; text: string; action: InstallAction }[]> {
  const claudeFiles = input.claudeFiles
  if (!claudeFiles) return []
  return Promise.all(
    SOMNUS_CLAUDE_FILES.map(async (file) => {
      const pluginText = claudeFiles.pluginTexts[file.pluginPath]
      if (pluginText === undefined) {
        throw new SomnusError(
          'NOT_FOUND',
          `The Somnus package has no plugin/${file.pluginPath}, which \`somnus init\` installs as ${file.projectPath}: reinstall somnus.`,
        )
      }
      const text = installedFileText(pluginText, claudeFiles.somnusCommand)
      const existing = await input.projectFiles.read(file.projectPath)
      return { path: file.projectPath, text, action: installAction(existing, text) }
    }),
  )
}

/** One file `init` lays out: its path in the report, the document, the text. */
interface Wanted {
  path: string
  document: BrainDocument
  text: string
}

function templateDocument(path: string): BrainDocument {
  const document = documentAt(path)
  if (document) return document
  throw new SomnusError(
    'INVALID_INPUT',
    `The init template ${JSON.stringify(path)} is no document of the brain's layout (core files, knowledge, tasks, features, .gitkeep). Remove it from templates/init, or name it as the brain lays it out.`,
  )
}

/**
 * The ignore file with the template's rules added: the whole template when there is no file,
 * only the missing rule lines when there is one, and null text when nothing is missing.
 */
export function mergeIgnoreLines(
  current: string | null,
  template: string,
): { text: string | null; existed: boolean } {
  if (current === null) return { text: template, existed: false }
  const present = new Set(current.split(/\r?\n/).map((line) => line.trim()))
  const missing = template
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && !present.has(line))
  if (missing.length === 0) return { text: null, existed: true }
  const base = current === '' || current.endsWith('\n') ? current : `${current}\n`
  return { text: `${base}${missing.join('\n')}\n`, existed: true }
}

function safeSettings(text: string): ClaudeSettings {
  try {
    return parseClaudeSettings(text, CLAUDE_SETTINGS_PATH)
  } catch {
    return {}
  }
}
