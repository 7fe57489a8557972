/** Logs one message to total recall (`conversation.jsonl`) and counts it for the cycle. */

import { SomnusError } from '../../engine/core/errors.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { ConversationEntry, ConversationRole } from '../core/mind-state.ts'
import { plainText } from '../core/plain-text.ts'
import { type MindDeps, writeState } from './mind-deps.ts'
import { withMind } from './with-mind.ts'

/** One message: who said it and what. */
export interface MessageInput {
  role: Exclude<ConversationRole, 'tool'>
  content: string
  /** A speaker's name (a chat partner). */
  name?: string | undefined
  /** When it was said (ISO 8601), when it was not just now (a replayed history). @default now */
  at?: string | undefined
}

const ROLES = ['user', 'assistant', 'system']

/** Appends the message; returns its line in conversation.jsonl. */
export async function recordMessage(
  deps: MindDeps,
  input: MessageInput,
): Promise<{ line: number }> {
  if (!ROLES.includes(input.role)) {
    throw new SomnusError(
      'USAGE',
      `Role must be one of ${ROLES.join(', ')} (got "${input.role}"); record tool calls as actions.`,
    )
  }
  return withMind(deps, async (files, state) => {
    const name = input.name ? storedText(input.name, 200) : ''
    const entry: ConversationEntry = {
      t: eventTime(input.at, deps.clock.now()),
      role: input.role,
      content: storedText(input.content, deps.config.maxLoggedChars),
      ...(name ? { name } : {}),
    }
    await files.appendLog('conversation', [JSON.stringify(entry)])
    await writeState(files, { ...state, messagesSinceDream: state.messagesSinceDream + 1 })
    return { line: await files.countLines('conversation') }
  })
}

/**
 * Outside text as it is stored: secrets redacted (before the clip, so no secret is cut in half
 * and left readable), control characters made visible, cut to `max` characters.
 */
export function storedText(text: string, max: number): string {
  return clip(plainText(redactSecrets(text)), max)
}

/** The event's time: `at` when it is a date (ISO 8601 out), else now. */
export function eventTime(at: string | undefined, now: Date): string {
  if (at === undefined) return now.toISOString()
  const parsed = Date.parse(at)
  if (!Number.isFinite(parsed)) {
    throw new SomnusError('USAGE', `"at" must be an ISO 8601 date and time (got "${at}").`)
  }
  return new Date(parsed).toISOString()
}

/** The text cut to `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}… [${text.length - max} more characters not logged]`
}
