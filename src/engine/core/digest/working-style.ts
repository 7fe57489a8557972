/**
 * Working style: how the user works, as rules a next session can follow. Only the user's own
 * words count as the user's preferences (corrections, answers to the agent's questions, calls
 * they rejected; quoted short, as evidence), and the workflow is the command sequence the
 * session repeated for each piece of work (between commits), in the order it ran.
 */
import type { DigestMaterial, LoggedCommand } from './digest-material.ts'
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

/** Commands that close a task in the usual trackers (`bd close`, `br close`). */
const TASK_CLOSE = /^(?:bd|br|tk|task) (?:close|done|complete)$/

/**
 * The per-task command sequence: the session's shell commands cut into pieces of work at each
 * commit that went through (with the push or sync that follows it), or, when the session
 * committed once at the end, at each task it closed; then the steps that ran in most pieces, in
 * their usual order, and what ran once after the last piece (the final commit and push). With
 * fewer than two pieces there is no repetition to report.
 */
export function workflowOf(log: LoggedCommand[], commits: ReadonlySet<string>): DigestItem[] {
  const steps = log.filter((command) => !LOOK_AROUND.test(command.key))
  const committed = (step: LoggedCommand) => step.key === 'git commit' && commits.has(step.uuid)
  let pieces = cut(steps, committed, (step) => AFTER_COMMIT.test(step.key))
  let tail: LoggedCommand[] = []
  if (pieces.finished.length < 2) {
    // One commit for the whole session: the pieces of work are the tasks it closed.
    pieces = cut(
      steps,
      (step) => TASK_CLOSE.test(step.key),
      (step) => TASK_CLOSE.test(step.key),
    )
    tail = pieces.rest.filter((step) => /^git (?:add|commit|push)$|^(?:bd|br) sync$/.test(step.key))
  }
  const finished = pieces.finished
  if (finished.length < 2) return []
  const sequence = usualSteps(finished)
  if (sequence.length < 2) return []
  const sourceOf = (piece: LoggedCommand[]) =>
    (piece.find(committed) ?? piece.find((step) => TASK_CLOSE.test(step.key)))?.uuid ?? ''
  const closing = [...new Set(tail.map((step) => step.form))]
  return [
    item(
      `Per piece of work (${finished.length} times): ${sequence.map(code).join(' → ')}${closing.length > 0 ? `; at the end: ${closing.map(code).join(' → ')}` : ''}.`,
      ...finished.slice(-2).map(sourceOf),
    ),
  ]
}

/**
 * `steps` cut after each step `ends` (and the steps `follows` right after it): the finished pieces,
 * and what came after the last one.
 */
function cut(
  steps: LoggedCommand[],
  ends: (step: LoggedCommand) => boolean,
  follows: (step: LoggedCommand) => boolean,
): { finished: LoggedCommand[][]; rest: LoggedCommand[] } {
  const finished: LoggedCommand[][] = []
  let current: LoggedCommand[] = []
  let closed = false
  for (const step of steps) {
    if (closed && !follows(step)) {
      finished.push(current)
      current = []
      closed = false
    }
    current.push(step)
    if (ends(step)) closed = true
  }
  if (closed) {
    finished.push(current)
    current = []
  }
  return { finished, rest: current }
}

/** The steps most pieces ran (at least two, more than half), in their usual order, spelt as most did. */
function usualSteps(finished: LoggedCommand[][]): string[] {
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
  const needed = finished.length <= 2 ? 2 : Math.floor(finished.length / 2) + 1
  return [...stats]
    .filter(([, stat]) => stat.pieces >= needed)
    .sort((a, b) => a[1].position / a[1].pieces - b[1].position / b[1].pieces)
    .map(([, stat]) => mostCommon(stat.forms))
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
