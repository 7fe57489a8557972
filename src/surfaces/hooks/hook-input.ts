/**
 * What Claude Code writes on a command hook's stdin, one schema per event (research/seed-systems.md
 * 6.1, and what 2.1.329 was seen to send). Loose: Claude Code adds fields often (`prompt_id`,
 * `effort`, `background_tasks`, ...), and a hook must never fail because of a field it does not use.
 * Every field is optional: a payload missing what an event needs is handled by that event.
 */
import * as z from 'zod/mini'

const text = () => z.optional(z.nullable(z.string()))

/** Fields every event carries. */
const baseShape = {
  session_id: text(),
  transcript_path: text(),
  cwd: text(),
  hook_event_name: text(),
  permission_mode: text(),
}

/** Stop: once per turn, after the main agent's last reply of that turn. */
export const StopInputSchema = z.looseObject({
  ...baseShape,
  last_assistant_message: text(),
  stop_hook_active: z.optional(z.nullable(z.boolean())),
})
/** Parsed Stop stdin. */
export type StopInput = z.infer<typeof StopInputSchema>

/** SubagentStop: a sub-agent finished; `session_id` is the parent's. */
export const SubagentStopInputSchema = z.looseObject({
  ...baseShape,
  agent_id: text(),
  agent_transcript_path: text(),
  agent_type: text(),
  last_assistant_message: text(),
  stop_hook_active: z.optional(z.nullable(z.boolean())),
})
/** Parsed SubagentStop stdin. */
export type SubagentStopInput = z.infer<typeof SubagentStopInputSchema>

/** SessionStart: `source` is startup, resume, clear, compact or fork. */
export const SessionStartInputSchema = z.looseObject({ ...baseShape, source: text() })
/** Parsed SessionStart stdin. */
export type SessionStartInput = z.infer<typeof SessionStartInputSchema>

/** PreCompact: `trigger` is manual or auto; `custom_instructions` what the user gave `/compact`. */
export const PreCompactInputSchema = z.looseObject({
  ...baseShape,
  trigger: text(),
  custom_instructions: text(),
})
/** Parsed PreCompact stdin. */
export type PreCompactInput = z.infer<typeof PreCompactInputSchema>

/** SessionEnd: `reason` is clear, logout, prompt_input_exit or other. */
export const SessionEndInputSchema = z.looseObject({ ...baseShape, reason: text() })
/** Parsed SessionEnd stdin. */
export type SessionEndInput = z.infer<typeof SessionEndInputSchema>

/** UserPromptSubmit: the prompt the user just sent. */
export const UserPromptSubmitInputSchema = z.looseObject({ ...baseShape, prompt: text() })
/** Parsed UserPromptSubmit stdin. */
export type UserPromptSubmitInput = z.infer<typeof UserPromptSubmitInputSchema>

/** The events `somnus hook <event>` handles, by command-line name, with their stdin schema. */
export const HOOK_INPUT_SCHEMAS = {
  stop: StopInputSchema,
  'subagent-stop': SubagentStopInputSchema,
  'session-start': SessionStartInputSchema,
  'user-prompt-submit': UserPromptSubmitInputSchema,
  'pre-compact': PreCompactInputSchema,
  'session-end': SessionEndInputSchema,
} as const

/** A command-line event name (`stop`, `session-start`, ...). */
export type HookEvent = keyof typeof HOOK_INPUT_SCHEMAS

/** The parsed stdin of each event. */
export interface HookInputs {
  stop: StopInput
  'subagent-stop': SubagentStopInput
  'session-start': SessionStartInput
  'user-prompt-submit': UserPromptSubmitInput
  'pre-compact': PreCompactInput
  'session-end': SessionEndInput
}

/** What each event is for, shown by `somnus hook --help`. */
export const HOOK_EVENT_HELP: Record<HookEvent, string> = {
  'session-start': 'SessionStart: score pending sessions, print the directive and the snapshot',
  stop: 'Stop: record this session and its score (once per turn, upserted)',
  'subagent-stop': 'SubagentStop: nothing to do (the parent Stop counts sub-agent work)',
  'user-prompt-submit': 'UserPromptSubmit: a one-line reminder when sleep is due',
  'pre-compact': 'PreCompact: log the compaction (last 20 kept)',
  'session-end': 'SessionEnd: record the end reason and finish the score',
}

/** True when `name` is an event this hook handles. */
export function isHookEvent(name: string): name is HookEvent {
  return Object.hasOwn(HOOK_INPUT_SCHEMAS, name)
}

/** The outcome of reading stdin: the payload, or why it could not be used. */
export type HookInputResult<E extends HookEvent> =
  | { ok: true; input: HookInputs[E] }
  | { ok: false; problem: string }

/**
 * Parses stdin for `event`. Empty stdin is an empty payload (someone ran the hook by hand); text
 * that is not a JSON object, or a field of the wrong type, is a problem to log, never a throw.
 */
export function parseHookInput<E extends HookEvent>(
  event: E,
  stdinText: string,
): HookInputResult<E> {
  if (stdinText.trim() === '') return { ok: true, input: {} as HookInputs[E] }
  let raw: unknown
  try {
    raw = JSON.parse(stdinText)
  } catch {
    return { ok: false, problem: `stdin is not JSON (${describe(stdinText)})` }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problem: `stdin is not a JSON object (${describe(stdinText)})` }
  }
  const parsed = HOOK_INPUT_SCHEMAS[event].safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || '(root)'
    return { ok: false, problem: `stdin field "${where}": ${issue?.message ?? 'invalid'}` }
  }
  return { ok: true, input: parsed.data as HookInputs[E] }
}

function describe(stdinText: string): string {
  const flat = stdinText.replace(/\s+/g, ' ').trim()
  return `${stdinText.length} chars: ${flat.length > 60 ? `${flat.slice(0, 60)}...` : flat}`
}
