/** Logs one message to total recall (`conversation.jsonl`) and counts it for the cycle. */

import { SomnusError } from '../../core/errors.ts'
import type { ConversationEntry, ConversationRole } from '../../core/mind/mind-state.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import { type MindDeps, withMind, writeState } from './mind-deps.ts'

/** One message: who said it and what. */
export interface MessageInput {
  role: Exclude<ConversationRole, 'tool'>
  content: string
  /** A speaker's name (a chat partner). */
  name?: string | undefined
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
    const entry: ConversationEntry = {
      t: deps.clock.now().toISOString(),
      role: input.role,
      content: clip(redactSecrets(input.content), deps.config.maxLoggedChars),
      ...(input.name ? { name: input.name } : {}),
    }
    await files.appendLog('conversation', [JSON.stringify(entry)])
    await writeState(files, { ...state, messagesSinceDream: state.messagesSinceDream + 1 })
    return { line: await files.countLines('conversation') }
  })
}

/** The text cut to `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}… [${text.length - max} more characters not logged]`
}
