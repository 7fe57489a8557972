/**
 * Working style: how the user works, as rules a next session can follow. Only the user's own
 * words count as the user's preferences (corrections, answers to the agent's questions, calls
 * they rejected; quoted short, as evidence), and the workflow is the command sequence the
 * session repeated for each piece of work (between commits), in the order it ran.
 */
import type { DigestMaterial } from './digest-material.ts'
import { code, leadingSentences, oneLine, shortId } from './digest-text.ts'
import type { DigestItem } from './session-digest.ts'

/** Words that say a user prompt is a correction or a stated preference. */
const PREFERENCE_WORDS =
  /\b(?:don'?t|do not|never|always|instead|prefer|rather|should(?:n'?t)?|must|please|stop|wrong|why|make sure|no,|not|did you|until|keep going|without (?:asking|stopping)|from now on|every time|each time)\b/i

/** Commands that only look around or wait: not steps of the workflow. */
const LOOK_AROUND =
  /^(?:ls|cat|head|tail|grep|rg|find|echo|pwd|wc|sed|awk|which|tree|sleep|cd|git (?:status|diff|log|show|branch|rev-parse|remote|stash)|bd (?:show|list|ready|stats|dep)|br (?:show|list|ready))\b/

/** Steps that follow a commit as part of the same piece of work (publishing it). */
const AFTER_COMMIT = /^(?:git (?:push|pull|tag)|bd sync|br sync|gh pr)\b/

/** A shell command the session ran, in order: its program and subcommand, and how it was spelt. */
export interface LoggedCommand {
  key: string
  form: string
  uuid: string
}

/** Prompts up to this long read as brief instructions. */
const BRIEF_PROMPT = 120

/** The user's preferences, in their own words, as rules. */
export function preferencesOf(material: DigestMaterial): DigestItem[] {
  const prompts = material.prompts
  const items: DigestItem[] = []
  const style = promptStyle(material)
  if (style !== null) items.push(style)
  const corrections = prompts
    .slice(1)
    .filter((prompt) => PREFERENCE_WORDS.test(prompt.text))
    .slice(0, 4)
  for (const prompt of corrections)
    items.push(item(`In the user's words: "${quote(prompt.text)}"`, prompt.uuid))
  for (const answer of material.answers) items.push(item(`The user ${answer.text}`, answer.uuid))
  return items
}

/** How the user asks: brief prompts that name the work, carried through without check-ins. */
function promptStyle(material: DigestMaterial): DigestItem | null {
  const prompts = material.prompts
  if (prompts.length === 0) return null
  if (prompts.some((prompt) => oneLine(prompt.text).length > BRIEF_PROMPT)) return null
  const examples = prompts.slice(0, 2).map((prompt) => `"${quote(prompt.text)}"`)
  const asked = material.answers.length
  const carried =
    material.commits.length > 0 || material.changes.size > 0
      ? asked === 0
        ? ': the agent carries the whole task through without check-ins'
        : ''
      : ''
  return item(
    `Brief prompts (${examples.join(', ')})${carried}.`,
    ...prompts.slice(0, 2).map((prompt) => prompt.uuid),
  )
}

/**
 * The per-task command sequence: the session's shell commands cut into pieces of work at each
 * commit (with the push or sync that follows it), then the steps that ran in at least half of
 * the pieces, in their usual order. With fewer than two pieces there is no repetition to report.
 */
export function workflowOf(log: LoggedCommand[], commits: ReadonlySet<string>): DigestItem[] {
  const pieces: LoggedCommand[][] = [[]]
  for (const command of log) {
    if (LOOK_AROUND.test(command.key)) continue
    const current = pieces.at(-1) as LoggedCommand[]
    const afterCommit = current.some((step) => step.key === 'git commit')
    if (afterCommit && !AFTER_COMMIT.test(command.key) && command.key !== 'git commit')
      pieces.push([command])
    else current.push(command)
  }
  // A commit a hook rejected is no finished piece: only commits that went through count.
  const finished = pieces.filter((piece) =>
    piece.some((step) => step.key === 'git commit' && commits.has(step.uuid)),
  )
  if (finished.length < 2) return []
  const stats = new Map<string, { pieces: number; position: number; forms: Map<string, number> }>()
  for (const piece of finished) {
    const seen = new Set<string>()
    for (const [index, step] of piece.entries()) {
      const stat = stats.get(step.key) ?? { pieces: 0, position: 0, forms: new Map() }
      stat.forms.set(step.form, (stat.forms.get(step.form) ?? 0) + 1)
      if (!seen.has(step.key)) {
        seen.add(step.key)
        stat.pieces++
        stat.position += index / Math.max(1, piece.length - 1)
      }
      stats.set(step.key, stat)
    }
  }
  const steps = [...stats]
    .filter(([, stat]) => stat.pieces >= Math.max(2, finished.length / 2))
    .sort((a, b) => a[1].position / a[1].pieces - b[1].position / b[1].pieces)
    .map(([, stat]) => mostCommon(stat.forms))
  if (steps.length < 2) return []
  const sources = finished.slice(-2).map((piece) => piece.find((step) => step.key === 'git commit'))
  return [
    item(
      `Per piece of work (${finished.length} times): ${steps.map(code).join(' → ')}.`,
      ...sources.map((step) => step?.uuid ?? ''),
    ),
  ]
}

/**
 * A command as a workflow step: program, subcommand and options (with short values), without
 * paths, ids, messages, redirections or what it was piped into.
 */
export function commandForm(command: string, key: string): string {
  const program = key.split(' ')[0] ?? ''
  const segment =
    command
      .split(/&&|;|\n/)
      .map((part) => part.trim())
      .find((part) => part.includes(program)) ?? ''
  const words = (segment.split('|')[0] ?? '').trim().split(/\s+/)
  const start = words.findIndex((word) => word.replace(/^.*\//, '') === program)
  const kept = [key]
  const rest = words.slice(start + 1 + (key.includes(' ') ? 1 : 0))
  for (const [index, word] of rest.entries()) {
    if (/^\d*>/.test(word)) continue
    if (
      /^--?[\w-]+(?:=[\w.-]{1,24})?$/.test(word) &&
      !/^--?(?:m|message|reason|title|body|description)\b/.test(word)
    ) {
      kept.push(word)
      const next = rest[index + 1]
      if (
        word.startsWith('--') &&
        !word.includes('=') &&
        next !== undefined &&
        /^[a-z_]{2,16}$/.test(next)
      )
        kept.push(next)
    }
  }
  return kept.join(' ')
}

function mostCommon(forms: Map<string, number>): string {
  return [...forms].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}

function quote(text: string): string {
  return leadingSentences(text, 90).replace(/"/g, "'")
}

function item(text: string, ...uuids: string[]): DigestItem {
  return { text, sources: [...new Set(uuids.filter((uuid) => uuid !== '').map(shortId))] }
}
