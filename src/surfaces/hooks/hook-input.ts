/**
 * What Claude Code writes on a command hook's stdin, one schema per event (research/seed-systems.md
 * 6.1, and what 2.1.329 was seen to send). Loose: Claude Code adds fields often (`prompt_id`,
 * `effort`, `background_tasks`, ...), and a hook must never fail because of a field it does not use.
 * Every field is optional: a payload missing what an event needs is handled by that event.
 */
import * as z from 'zod/mini'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'

/** The stdin schemas, built on first use: the hand check in parseHookInput answers most payloads. */
function buildSchemas() {
  const text = () => z.optional(z.nullable(z.string()))
  const flag = () => z.optional(z.nullable(z.boolean()))
  /** Fields every event carries. */
  const baseShape = {
    session_id: text(),
    transcript_path: text(),
    cwd: text(),
    hook_event_name: text(),
    permission_mode: text(),
  }
  return {
    /** Stop: once per turn, after the main agent's last reply of that turn. */
    stop: z.looseObject({ ...baseShape, last_assistant_message: text(), stop_hook_active: flag() }),
    /** SubagentStop: a sub-agent finished; `session_id` is the parent's. */
    'subagent-stop': z.looseObject({
      ...baseShape,
      agent_id: text(),
      agent_transcript_path: text(),
      agent_type: text(),
      last_assistant_message: text(),
      stop_hook_active: flag(),
    }),
    /** SessionStart: `source` is startup, resume, clear, compact or fork. */
    'session-start': z.looseObject({ ...baseShape, source: text() }),
    /** UserPromptSubmit: the prompt the user just sent. */
    'user-prompt-submit': z.looseObject({ ...baseShape, prompt: text() }),
    /** PreCompact: `trigger` is manual or auto; `custom_instructions` what the user gave `/compact`. */
    'pre-compact': z.looseObject({ ...baseShape, trigger: text(), custom_instructions: text() }),
    /** SessionEnd: `reason` is clear, logout, prompt_input_exit or other. */
    'session-end': z.looseObject({ ...baseShape, reason: text() }),
  }
}
type Schemas = ReturnType<typeof buildSchemas>
let built: Schemas | undefined
/** The event's zod schema, which judges and words what the hand check cannot vouch for. */
export const schemaFor = (event: HookEvent) => {
  built ??= buildSchemas()
  return built[event]
}

/** Parsed Stop stdin. */
export type StopInput = z.infer<Schemas['stop']>
/** Parsed SubagentStop stdin. */
export type SubagentStopInput = z.infer<Schemas['subagent-stop']>
/** Parsed SessionStart stdin. */
export type SessionStartInput = z.infer<Schemas['session-start']>
/** Parsed PreCompact stdin. */
export type PreCompactInput = z.infer<Schemas['pre-compact']>
/** Parsed SessionEnd stdin. */
export type SessionEndInput = z.infer<Schemas['session-end']>
/** Parsed UserPromptSubmit stdin. */
export type UserPromptSubmitInput = z.infer<Schemas['user-prompt-submit']>

/**
 * A hook payload larger than this is refused, not read on: Claude Code's payloads are a few KB
 * (a long closing message or prompt, some MB at most), and reading without end would keep the
 * hook past its timeout.
 */
export const HOOK_INPUT_MAX_BYTES = 32 * 1024 * 1024

const BASE = ['session_id', 'transcript_path', 'cwd', 'hook_event_name', 'permission_mode']

/** The events `somnus hook <event>` handles, by command-line name, with their string fields. */
const TEXT_FIELDS = {
  stop: [...BASE, 'last_assistant_message'],
  'subagent-stop': [
    ...BASE,
    'agent_id',
    'agent_transcript_path',
    'agent_type',
    'last_assistant_message',
  ],
  'session-start': [...BASE, 'source'],
  'user-prompt-submit': [...BASE, 'prompt'],
  'pre-compact': [...BASE, 'trigger', 'custom_instructions'],
  'session-end': [...BASE, 'reason'],
} as const satisfies Record<string, readonly string[]>

/** The events' boolean fields. */
const FLAG_FIELDS: Partial<Record<HookEvent, readonly string[]>> = {
  stop: ['stop_hook_active'],
  'subagent-stop': ['stop_hook_active'],
}

/** The events `somnus hook <event>` handles, by command-line name. */
export const HOOK_EVENTS = Object.keys(TEXT_FIELDS) as HookEvent[]

/** A command-line event name (`stop`, `session-start`, ...). */
export type HookEvent = keyof typeof TEXT_FIELDS

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
  'user-prompt-submit':
    'UserPromptSubmit: a one-line reminder when sleep is due, and the few memory lines that bear on the prompt',
  'pre-compact': 'PreCompact: log the compaction (last 20 kept)',
  'session-end': 'SessionEnd: record the end reason and finish the score',
}

/** True when `name` is an event this hook handles. */
export function isHookEvent(name: string): name is HookEvent {
  return Object.hasOwn(TEXT_FIELDS, name)
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
  const checked = checkHookInput(event, raw as Record<string, unknown>)
  if (checked !== undefined) return { ok: true, input: checked as HookInputs[E] }
  const parsed = schemaFor(event).safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.join('.') || '(root)'
    return { ok: false, problem: `stdin field "${where}": ${issue?.message ?? 'invalid'}` }
  }
  return { ok: true, input: parsed.data as HookInputs[E] }
}

/**
 * The payload as the event's zod schema returns it (known keys first, unknown keys kept), or
 * `undefined` when unsure: then the schema decides and words the problem. Checked by hand because
 * building and running a zod object schema costs the hook's start-up several milliseconds.
 */
function checkHookInput(
  event: HookEvent,
  raw: Record<string, unknown>,
): Record<string, unknown> | undefined {
  if (Object.hasOwn(raw, '__proto__')) return undefined
  const out: Record<string, unknown> = {}
  for (const key of TEXT_FIELDS[event]) {
    if (!(key in raw)) continue
    const value = raw[key]
    if (value !== undefined && value !== null && typeof value !== 'string') return undefined
    out[key] = value
  }
  for (const key of FLAG_FIELDS[event] ?? []) {
    if (!(key in raw)) continue
    const value = raw[key]
    if (value !== undefined && value !== null && typeof value !== 'boolean') return undefined
    out[key] = value
  }
  for (const key of Object.keys(raw)) if (!(key in out)) out[key] = raw[key]
  return out
}

function describe(stdinText: string): string {
  // Redacted before the cut: a prompt cut short at 60 characters may no longer look like a key.
  const flat = redactSecrets(stdinText.slice(0, 4096)).replace(/\s+/g, ' ').trim()
  return `${stdinText.length} chars: ${flat.length > 60 ? `${flat.slice(0, 60)}...` : flat}`
}
