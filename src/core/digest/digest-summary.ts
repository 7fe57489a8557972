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

/** The wrap-up's first real statement, else the commits and closed tasks. */
function outcomeOf(material: DigestMaterial, wrapUp: Closing | null): Sourced | null {
  if (wrapUp !== null) {
    // Prose only: list items, table rows and headings in a wrap-up detail one part, not the whole.
    const prose = wrapUp.text
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => !/^\s*(?:[-*+|#>]|\d+[.)])/.test(line))
    for (const line of markdownLines(prose.join('\n'))) {
      const statement = sentencesOf(line.replace(/:$/, '.')).find(
        (sentence) =>
          sentence.split(' ').length >= 3 &&
          !NOT_A_STATEMENT.test(sentence) &&
          HAS_VERB.test(sentence),
      )
      if (statement === undefined) continue
      const text = leadingSentences(statement, OUTCOME_CHARS)
      return { text: /[.!?…]$/.test(text) ? text : `${text}.`, uuid: wrapUp.uuid }
    }
  }
  return factualOutcome(material)
}

/** What the record shows came of the session: tasks closed, commits, a push, the last tests. */
function factualOutcome(material: DigestMaterial): Sourced | null {
  const closed = [...material.tasks.values()].filter((task) => isFinishedStatus(task.status))
  const commits = material.commits.length
  const lastTest = [...material.testRuns].reverse().find((run) => run.figure !== null)
  const parts = [
    closed.length > 0 ? `closed ${closed.length} task${closed.length > 1 ? 's' : ''}` : '',
    commits > 0 ? `${commits} commit${commits > 1 ? 's' : ''}` : '',
    material.pushes.length > 0 ? 'pushed' : '',
    lastTest?.ok === true ? `tests: ${lastTest.figure}` : '',
  ].filter((part) => part !== '')
  if (parts.length === 0) return null
  const uuid = material.pushes.at(-1)?.uuid ?? material.commits.at(-1)?.uuid ?? lastTest?.uuid ?? ''
  return { text: `${parts.join(', ')}.`, uuid }
}

/** Text without markdown, quotes or line breaks. */
function plain(text: string): string {
  return oneLine(markdownLines(text).join('. ').replace(/\.\./g, '.')).replace(/["“”]/g, '')
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? `${(text[0] as string).toLowerCase()}${text.slice(1)}` : text
}
