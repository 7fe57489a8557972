/**
 * Task state from what the agent did: Claude Code's own todo tools (TodoWrite, and TaskCreate /
 * TaskUpdate in newer versions) and issue trackers driven from the shell (beads: `bd`/`br`
 * `create`, `update --status`, `close --reason`; GitHub: `gh issue close`). Later events replace
 * earlier ones, so the digest reports each task as it stood at the end of the session.
 */
import { isRecord } from '../transcript/transcript-rules.ts'

/** One change to a task's state. */
export interface TaskEvent {
  /** The tracker's id (`spotter-gqc.4`, `#12`), or the todo's text for todo lists. */
  id: string
  /** `open`, `in_progress`, `closed`, ... as the tool said it (todos' `completed` is `closed`). */
  status: string
  /** A title or reason, when the command gave one. */
  note: string
}

/** Statuses that mean the task is finished. */
const FINISHED = new Set(['closed', 'completed', 'done', 'resolved', 'cancelled', 'canceled'])

/** True when `status` means the task is finished. */
export function isFinishedStatus(status: string): boolean {
  return FINISHED.has(status.toLowerCase())
}

/** The task events of a `bd`/`br`/`gh issue` shell command (its output names created ids). */
export function shellTaskEvents(command: string, output: string): TaskEvent[] {
  const events: TaskEvent[] = []
  for (const segment of command.split(/&&|\|\||;|\n/)) {
    const words = shellWords(segment.trim())
    const program = words[0] ?? ''
    if (program === 'bd' || program === 'br') events.push(...beadsEvents(words.slice(1), output))
    else if (program === 'gh' && words[1] === 'issue' && words[2] === 'close' && words[3])
      events.push({ id: `#${words[3].replace(/^#/, '')}`, status: 'closed', note: '' })
  }
  return events
}

function beadsEvents(words: string[], output: string): TaskEvent[] {
  const verb = words[0] ?? ''
  const options = optionsOf(words.slice(1))
  const ids = options.positional.filter((word) => /^[\w.-]+-[\w.]+$/.test(word))
  if (verb === 'close')
    return ids.map((id) => ({ id, status: 'closed', note: options.named.reason ?? '' }))
  if (verb === 'update' && options.named.status !== undefined) {
    const status = options.named.status
    return ids.map((id) => ({ id, status, note: '' }))
  }
  if (verb === 'create') {
    const created = /Created issue:?\s+([\w.-]+)/i.exec(output)?.[1]
    const title = options.named.title ?? options.positional[0] ?? ''
    if (created === undefined && title === '') return []
    return [{ id: created ?? title, status: 'open', note: created === undefined ? '' : title }]
  }
  return []
}

/** `--name=value` / `--name value` options and the other words of a command. */
function optionsOf(words: string[]): { named: Record<string, string>; positional: string[] } {
  const named: Record<string, string> = {}
  const positional: string[] = []
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string
    const option = /^--([\w-]+)(?:=(.*))?$/s.exec(word)
    if (option === null) {
      if (!word.startsWith('-')) positional.push(word)
      continue
    }
    const name = option[1] as string
    if (option[2] !== undefined) named[name] = option[2]
    else if (index + 1 < words.length && !(words[index + 1] as string).startsWith('-'))
      named[name] = words[++index] as string
  }
  return { named, positional }
}

/** A command line split into words, quotes removed (`--reason="a b"` is one word). */
export function shellWords(line: string): string[] {
  const words: string[] = []
  let current = ''
  let quote: string | null = null
  let inWord = false
  for (const character of line) {
    if (quote !== null) {
      if (character === quote) quote = null
      else current += character
      continue
    }
    if (character === '"' || character === "'") {
      quote = character
      inWord = true
    } else if (/\s/.test(character)) {
      if (inWord) words.push(current)
      current = ''
      inWord = false
    } else {
      current += character
      inWord = true
    }
  }
  if (inWord) words.push(current)
  // Redirections (`2>&1`, `2>/dev/null`) are not arguments.
  return words.filter((word) => !/^\d*>/.test(word))
}

/** The todos of a TodoWrite call as events (the whole list: absent ones are gone). */
export function todoWriteEvents(input: unknown): TaskEvent[] | null {
  if (!isRecord(input) || !Array.isArray(input.todos)) return null
  return input.todos.filter(isRecord).flatMap((todo) => {
    const content = typeof todo.content === 'string' ? todo.content.trim() : ''
    if (content === '') return []
    const status = typeof todo.status === 'string' ? todo.status : 'pending'
    return [{ id: content, status, note: '' }]
  })
}

/** A TaskCreate / TaskUpdate call (Claude Code's task tools), given the id TaskCreate printed. */
export function taskToolEvent(name: string, input: unknown, output: string): TaskEvent | null {
  if (!isRecord(input)) return null
  if (name === 'TaskCreate') {
    const subject = typeof input.subject === 'string' ? input.subject : ''
    const id = /#(\d+)/.exec(output)?.[1]
    return subject === '' ? null : { id: id ?? subject, status: 'open', note: subject }
  }
  if (name === 'TaskUpdate') {
    const id = typeof input.taskId === 'string' ? input.taskId : String(input.taskId ?? '')
    const status = typeof input.status === 'string' ? input.status : ''
    if (id === '' || status === '') return null
    const subject = typeof input.subject === 'string' ? input.subject : ''
    return { id, status, note: subject }
  }
  return null
}
