/**
 * The digest's summary: one or two sentences, what the session set out to do and what came of it.
 * The goal is the user's first request (or the compaction summary's account of it when the
 * request is long or gone); the outcome is the wrap-up's first statement, else what the commits
 * and closed tasks show. Sentences are whole; quotes are not nested.
 */
import { sectionNamed } from './compaction-summary.ts'
import type { Closing, DigestMaterial, Sourced } from './digest-material.ts'
import { leadingSentences, markdownLines, oneLine, sentencesOf, shortId } from './digest-text.ts'
import type { DigestItem } from './session-digest.ts'
import { isFinishedStatus } from './task-events.ts'

/** Verbs a request opens with when it is an instruction ("Implement X", "Work on bead X"). */
const INSTRUCTION =
  /^(?:please\s+)?(?:implement|fix|add|work|make|build|create|write|update|refactor|remove|delete|investigate|debug|review|continue|finish|run|set up|setup|move|rename|migrate|port|improve|tackle|start|change|use|check|find|look|port|clean|document|test|design|plan|help|convert|extract|upgrade|bump|release|deploy|publish)\b/i

/** A wrap-up line that only introduces what follows ("Here's a summary:"), or a bare heading. */
const NOT_A_STATEMENT = /^(?:here(?:'s| is| are)|summary|done|all set|complete)\b/i

/** A statement has a verb: a form of be/have, or a past participle ("added", "fixed"). */
const HAS_VERB = /\b(?:is|are|was|were|has|have|had|been|now|passes|pass)\b|\b[A-Za-z]\w+ed\b/

/** A statement that reports what came of the work: done, pushed, fixed, passing. */
const REPORTS_OUTCOME =
  /\b(?:done|complete[ds]?|completed|finished|implemented|pushed|merged|shipped|landed|released|deployed|fixed|resolved|closed|pass(?:es|ed|ing)?|green|works|working|ready|delivered|in place|up to date)\b/i

/**
 * A statement about what is left over, not what was achieved ("The only remaining unstaged change
 * is `.mcp.json`"): said at the end of a wrap-up, it is not the session's outcome.
 */
const LEFT_OVER =
  /\b(?:remaining|remains?|left(?: over)?|unstaged|uncommitted|untracked|leftover|only (?:thing|change|file|difference)|still)\b/i

/** Longest goal and outcome, in characters. */
const GOAL_CHARS = 160
const OUTCOME_CHARS = 220

/** The summary item, or null when the session holds neither a request nor an outcome. */
export function summaryOf(
  material: DigestMaterial,
  sections: Array<Map<string, string>>,
  wrapUp: Closing | null,
): DigestItem | null {
  const request = requestOf(material, sections)
  const outcome = outcomeOf(material, wrapUp)
  const goal = request === null ? '' : goalSentence(request.text)
  if (goal === '' && outcome === null) return null
  const text =
    goal === ''
      ? (outcome?.text ?? '')
      : outcome === null
        ? `${goal}.`
        : `${goal}; ${lowerFirst(outcome.text)}`
  const uuids = [request?.uuid ?? '', outcome?.uuid ?? ''].filter((uuid) => uuid !== '')
  return { text, sources: [...new Set(uuids.map(shortId))] }
}

/** How a summary opens with its goal: `Set out to …` or `Asked for: …`, then `; ` and the outcome. */
const GOAL_PART = /^(?:Set out to |Asked for: )[^;]*(?:;\s*|\.?$)/

/**
 * What came of the session, from a summary `summaryOf` wrote: the outcome without the goal, ''
 * when the summary states only the goal. Readers that want the outcome alone (the changelog, a
 * digest's one-liner) use this, so the summary's shape is known in one place.
 */
export function summaryOutcome(text: string): string {
  const goal = GOAL_PART.exec(text)
  if (goal === null) return text
  const rest = text.slice(goal[0].length)
  return rest === '' ? '' : `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`
}

/** The goal part of a summary `summaryOf` wrote ('' when it has none), without its end mark. */
export function summaryGoal(text: string): string {
  return GOAL_PART.exec(text)?.[0].replace(/[;.\s]+$/, '') ?? ''
}

/** The user's first request; the compaction summary's account when the request is long or gone. */
function requestOf(material: DigestMaterial, sections: Array<Map<string, string>>): Sourced | null {
  const first = material.prompts[0]
  if (first !== undefined && plain(first.text).length <= 300) return first
  for (const [index, found] of sections.entries()) {
    const body = sectionNamed(found, 'request', 'intent')
    if (body !== '') return { text: body, uuid: material.compactions[index]?.uuid ?? '' }
  }
  return first ?? null
}

/** "Set out to implement X" from an instruction, else the request's first sentence as it is. */
function goalSentence(request: string): string {
  const first = sentencesOf(plain(request))[0] ?? ''
  const sentence = leadingSentences(first, GOAL_CHARS).replace(/[.!?]+$/, '')
  if (sentence === '') return ''
  if (INSTRUCTION.test(sentence))
    return `Set out to ${lowerFirst(sentence.replace(/^please\s+/i, ''))}`
  return `Asked for: ${sentence}`
}

/**
 * What came of the session: the wrap-up's first statement that reports an outcome (done, pushed,
 * fixed…) and is not about what is left over; else what the record shows (tasks closed, commits,
 * a push); else the wrap-up's first statement that is not about leftovers; else its first.
 */
function outcomeOf(material: DigestMaterial, wrapUp: Closing | null): Sourced | null {
  const statements = wrapUp === null ? [] : wrapUpStatements(wrapUp.text)
  const sourced = (text: string): Sourced => {
    const cut = leadingSentences(text, OUTCOME_CHARS)
    return { text: /[.!?…]$/.test(cut) ? cut : `${cut}.`, uuid: wrapUp?.uuid ?? '' }
  }
  const reported = statements.find(
    (statement) => REPORTS_OUTCOME.test(statement) && !LEFT_OVER.test(statement),
  )
  if (reported !== undefined) return sourced(reported)
  const factual = factualOutcome(material)
  if (factual !== null) return factual
  const plainStatement = statements.find((statement) => !LEFT_OVER.test(statement)) ?? statements[0]
  return plainStatement === undefined ? null : sourced(plainStatement)
}

/** The statements of a wrap-up's prose (list items, table rows and headings detail one part). */
function wrapUpStatements(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((line) => !/^\s*(?:[-*+|#>]|\d+[.)])/.test(line))
  const statements: string[] = []
  for (const line of markdownLines(prose.join('\n'))) {
    for (const sentence of sentencesOf(line.replace(/:$/, '.'))) {
      if (
        sentence.split(' ').length >= 3 &&
        !NOT_A_STATEMENT.test(sentence) &&
        HAS_VERB.test(sentence)
      )
        statements.push(sentence)
    }
  }
  return statements
}

/** What the record shows came of the session: tasks closed, commits, a push, the last tests. */
function factualOutcome(material: DigestMaterial): Sourced | null {
  const closed = [...material.tasks.values()].filter((task) => isFinishedStatus(task.status))
  const commits = material.commits.length
  const lastTest = [...material.testRuns].reverse().find((run) => run.figure !== null)
  const parts = [
    closed.length > 0 ? closedTasks(closed.map((task) => task.id)) : '',
    commits > 0 ? `${commits} commit${commits > 1 ? 's' : ''}` : '',
    material.pushes.length > 0 ? 'pushed' : '',
    lastTest?.ok === true ? `tests: ${lastTest.figure}` : '',
  ].filter((part) => part !== '')
  if (parts.length === 0) return null
  const uuid = material.pushes.at(-1)?.uuid ?? material.commits.at(-1)?.uuid ?? lastTest?.uuid ?? ''
  return { text: `${parts.join(', ')}.`, uuid }
}

/**
 * "closed 4 tasks of spotter-a0y" when the closed tasks are subtasks of one parent (`<id>.<n>`,
 * the parent itself may be among them), else "closed 3 tasks".
 */
function closedTasks(ids: readonly string[]): string {
  const parents = new Set(ids.map((id) => /^(.+)\.\d+$/.exec(id)?.[1] ?? id))
  const subtasks = ids.filter((id) => /\.\d+$/.test(id)).length
  const parent = parents.size === 1 ? [...parents][0] : undefined
  if (parent !== undefined && subtasks > 0)
    return `closed ${subtasks} task${subtasks > 1 ? 's' : ''} of ${parent}${ids.includes(parent) ? ' and the epic itself' : ''}`
  return `closed ${ids.length} task${ids.length > 1 ? 's' : ''}`
}

/** Text without markdown, quotes or line breaks. */
function plain(text: string): string {
  return oneLine(markdownLines(text).join('. ').replace(/\.\./g, '.')).replace(/["“”]/g, '')
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? `${(text[0] as string).toLowerCase()}${text.slice(1)}` : text
}
