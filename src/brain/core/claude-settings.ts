/**
 * Merging Somnus's hooks into a Claude Code `settings.json` without touching anything else:
 * other keys, other events and other tools' hooks stay exactly as they were, and running `init`
 * twice leaves one Somnus entry per event (research/seed-systems.md 1.4, 6.1).
 */
import { SomnusError } from '../../engine/core/errors.ts'

/** The Claude Code events Somnus listens to. */
export type SomnusHookEvent =
  | 'SessionStart'
  | 'Stop'
  | 'SubagentStop'
  | 'PreCompact'
  | 'SessionEnd'
  | 'UserPromptSubmit'

/** How each event is wired: the `somnus hook` verb, the matcher and the timeout in seconds. */
export const SOMNUS_HOOKS: readonly {
  event: SomnusHookEvent
  verb: string
  matcher?: string
  timeout: number
}[] = [
  {
    event: 'SessionStart',
    verb: 'session-start',
    matcher: 'startup|resume|compact|clear',
    timeout: 10,
  },
  { event: 'Stop', verb: 'stop', timeout: 5 },
  { event: 'SubagentStop', verb: 'subagent-stop', timeout: 5 },
  { event: 'PreCompact', verb: 'pre-compact', timeout: 5 },
  { event: 'SessionEnd', verb: 'session-end', timeout: 5 },
  { event: 'UserPromptSubmit', verb: 'user-prompt-submit', timeout: 5 },
]

/** A settings object: whatever the user has, plus `hooks`. */
export type ClaudeSettings = Record<string, unknown>

/** `…/dist/hook.cjs" <verb>`: the hook entry as `init` calls it, wherever the install is. */
const HOOK_ENTRY = new RegExp(
  `[\\\\/]dist[\\\\/]hook\\.cjs"?\\s+(${SOMNUS_HOOKS.map((spec) => spec.verb).join('|')})\\s*$`,
)

/**
 * Ours: a command that runs the hook entry (what `init` writes) or `somnus ... hook <verb>` (what
 * earlier versions wrote, and what a hand-written hook would call), whatever the install path.
 */
export function isSomnusHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false
  return HOOK_ENTRY.test(command) || (/somnus/i.test(command) && command.includes(' hook '))
}

/** Parses settings.json text; invalid JSON or a non-object is an error telling what to fix. */
export function parseClaudeSettings(text: string | null, path: string): ClaudeSettings {
  if (text === null || text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${path} is not valid JSON (${(error as Error).message}). Fix the file, then run \`somnus init\` again; nothing was written.`,
      { cause: error },
    )
  }
  if (!isRecord(parsed)) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${path} must hold a JSON object. Fix the file, then run \`somnus init\` again; nothing was written.`,
    )
  }
  return parsed
}

/**
 * Adds or refreshes one Somnus hook group per event. Existing Somnus commands are removed from
 * every group (a group left empty is dropped) and the current one is appended, unless the event
 * already holds exactly the wanted entry, in which case nothing changes. Never mutates `settings`.
 */
export function mergeSomnusHooks(
  settings: unknown,
  command: (event: SomnusHookEvent) => string,
): { settings: ClaudeSettings; changed: boolean } {
  const base: ClaudeSettings =
    settings === undefined || settings === null ? {} : requireRecord(settings, 'the settings')
  const hooks = base.hooks === undefined ? {} : requireRecord(base.hooks, '"hooks"')
  const nextHooks: Record<string, unknown> = { ...hooks }
  let changed = false
  for (const spec of SOMNUS_HOOKS) {
    const current = hooks[spec.event] === undefined ? [] : hooks[spec.event]
    if (!Array.isArray(current)) {
      throw new SomnusError(
        'INVALID_INPUT',
        `"hooks.${spec.event}" in .claude/settings.json must be an array of hook groups. Fix it, then run \`somnus init\` again; nothing was written.`,
      )
    }
    const wanted = wantedGroup(spec, command(spec.event))
    const ours = current.filter(groupHasSomnus)
    if (ours.length === 1 && JSON.stringify(ours[0]) === JSON.stringify(wanted)) continue
    nextHooks[spec.event] = [...current.flatMap(withoutSomnus), wanted]
    changed = true
  }
  return { settings: changed ? { ...base, hooks: nextHooks } : base, changed }
}

/** True when settings.json already wires Somnus hooks (from an earlier `somnus init`). */
export function hasSomnusHooks(settings: ClaudeSettings): boolean {
  if (!isRecord(settings.hooks)) return false
  return Object.values(settings.hooks).some(
    (groups) => Array.isArray(groups) && groups.some(groupHasSomnus),
  )
}

/** True when the project enables a Somnus plugin, whose hooks would run beside ours. */
export function somnusPluginEnabled(settings: ClaudeSettings): boolean {
  if (!isRecord(settings.enabledPlugins)) return false
  return Object.entries(settings.enabledPlugins).some(
    ([name, enabled]) => enabled === true && /^somnus@/.test(name),
  )
}

function wantedGroup(
  spec: (typeof SOMNUS_HOOKS)[number],
  command: string,
): Record<string, unknown> {
  const hook = { type: 'command', command, timeout: spec.timeout }
  return spec.matcher === undefined ? { hooks: [hook] } : { matcher: spec.matcher, hooks: [hook] }
}

function groupHasSomnus(group: unknown): boolean {
  return (
    isRecord(group) &&
    Array.isArray(group.hooks) &&
    group.hooks.some((hook) => isRecord(hook) && isSomnusHookCommand(hook.command))
  )
}

/** The group without Somnus commands; nothing when only Somnus commands were in it. */
function withoutSomnus(group: unknown): unknown[] {
  if (!groupHasSomnus(group) || !isRecord(group) || !Array.isArray(group.hooks)) return [group]
  const others = group.hooks.filter(
    (hook) => !(isRecord(hook) && isSomnusHookCommand(hook.command)),
  )
  return others.length === 0 ? [] : [{ ...group, hooks: others }]
}

function requireRecord(value: unknown, what: string): Record<string, unknown> {
  if (isRecord(value)) return value
  throw new SomnusError(
    'INVALID_INPUT',
    `${what} in .claude/settings.json must be a JSON object. Fix it, then run \`somnus init\` again; nothing was written.`,
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
