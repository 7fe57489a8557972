/**
 * From gathered material to a SessionDigest: later states replace earlier ones (the last test
 * figure, a task's last status, a failure fixed later is a gotcha, not an open issue), every item
 * cites its records, secrets are redacted, and the whole stays within a token budget by dropping
 * the least useful items first.
 */
import { redactSecrets } from '../redact-secrets.ts'
import { changeAreas } from './change-areas.ts'
import {
  compactionSections,
  sectionBullets,
  sectionNamed,
  summaryFileDescriptions,
} from './compaction-summary.ts'
import { fitToBudget } from './digest-budget.ts'
import { decisionCandidates, pickDecisions } from './digest-decisions.ts'
import { gotchasOf } from './digest-gotchas.ts'
import type { Closing, DigestMaterial, Sourced } from './digest-material.ts'
import { summaryOf } from './digest-summary.ts'
import {
  code,
  leadingSentences,
  markdownLines,
  oneLine,
  sentencesOf,
  shortId,
} from './digest-text.ts'
import { describeErrorFix } from './error-fix-text.ts'
import type { DigestItem, SessionDigest } from './session-digest.ts'
import { isFinishedStatus } from './task-events.ts'
import { runsTests } from './test-figures.ts'
import { preferencesOf, workflowOf } from './working-style.ts'

/** Wrap-up lines that name something left to do. */
const OPEN_MARKERS =
  /\b(?:remaining|not yet|todo|follow-?up|still open|left to|blocked|filed|gap|missing|skipped|not (?:done|tested|implemented|verified)|next steps?)\b/i

/** A heading or lead-in that announces what is still to do. */
const OPEN_HEADING =
  /\b(?:remaining|remains|next steps?|to ?do|follow-?ups?|open|known issues?|not (?:yet|done)|left|blocked|caveats?|limitations?|outstanding|pending|unresolved)\b/i

/** A heading or lead-in that announces finished work ("Summary", "What was done", "Commits"). */
const DONE_HEADING =
  /\b(?:done|complete[ds]?|finished|summary|changes|changed|what (?:was|i|we)\b|implemented|delivered|commits?|added|fixed|closed|results?|accomplished|shipped|tasks?|tests?)\b/i

/** A list item or table row that marks itself finished (a check mark, a ticked box). */
const FINISHED_MARK = /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|\s*)?(?:✅|✓|✔|☑|\[x\])/i

/** A list item or table row (what a heading or lead-in line governs). */
const LIST_ITEM = /^\s*(?:[-*+]\s+|\d+[.)]\s+|\|)/

/**
 * The wrap-up's lines that say something is still to do: a line with an open marker, unless it is
 * an item of a list of finished work (under a heading or lead-in that announces what was done, and
 * none that announces what remains) or marks itself finished. "Done: - spotter-4te.6 - 12 new
 * tests for the missing cases" reports work, whatever word it happens to hold.
 */
export function wrapUpOpenLines(text: string): string[] {
  const open: string[] = []
  let section: 'open' | 'done' | null = null
  let inFence = false
  for (const raw of text.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(raw)) {
      inFence = !inFence
      continue
    }
    if (inFence || raw.trim() === '') continue
    const item = LIST_ITEM.test(raw)
    const line = markdownLines(raw)[0] ?? ''
    const heading =
      /^\s*#+\s/.test(raw) || (!item && (/:\s*$/.test(line) || /^\s*\*\*[^*]+\*\*:?\s*$/.test(raw)))
    if (heading) {
      section = OPEN_HEADING.test(line) ? 'open' : DONE_HEADING.test(line) ? 'done' : null
      if (section !== null) continue
    } else if (!item) section = null
    if (line === '' || FINISHED_MARK.test(raw)) continue
    if (item && section === 'done') continue
    if (OPEN_MARKERS.test(line) || (item && section === 'open')) open.push(line)
  }
  return open
}

/** A wrap-up sentence the agent labels as a problem it leaves behind (`Known issue: …`). */
const LABELLED_OPEN =
  /^(?:known (?:issue|limitation|problem)s?|open issues?|caveats?|limitations?):\s+(?=\S)/i

/** A sentence stating a rule for next time: `When <situation>, <do this>`. */
const RULE_FOR_NEXT_TIME = /^(?:when|whenever|before)\s+[^,.]{3,80},\s*\S/i

/** Decisions kept: a few real choices beat many sentences that merely give a reason. */
const MAX_DECISIONS = 5

/** A closing text shorter than this (without code blocks) answers a question; it is no wrap-up. */
const WRAP_UP_CHARS = 300

/** The SessionDigest of `material`, rendered within `maxTokens`. */
export function assembleDigest(gathered: DigestMaterial, maxTokens: number): SessionDigest {
  const material = { ...gathered, compactions: uniqueSummaries(gathered.compactions) }
  const sections = material.compactions.map((summary) => compactionSections(summary.text))
  const wrapUp = pickWrapUp(material.closings)
  const digest: SessionDigest = {
    sessionId: material.sessionId,
    date: material.endedAt?.slice(0, 10) ?? null,
    startedAt: material.startedAt,
    endedAt: material.endedAt,
    project: material.cwd,
    branch: material.branch,
    files: material.files,
    summary: summaryOf(material, sections, wrapUp),
    changes: changeAreas([...material.changes.values()], summaryFileDescriptions(sections)),
    commits: commitsOf(material),
    decisions: [...decisionsOf(material, sections), ...wrapUpRules(wrapUp)],
    gotchas: gotchasOf(material, sections),
    done: doneOf(material, wrapUp),
    open: openOf(material, wrapUp),
    preferences: preferencesOf(material),
    workflow: workflowOf(
      material.commandLog,
      new Set(material.commits.map((commit) => commit.uuid)),
    ),
  }
  return fitToBudget(redacted(digest), maxTokens)
}

/** The summaries, each once: a compaction run's answer is also the session's summary record. */
function uniqueSummaries(summaries: Sourced[]): Sourced[] {
  const seen = new Set<string>()
  return summaries.filter((summary) => {
    const sections = compactionSections(summary.text)
    const key = oneLine([...sections.values()].slice(0, 2).join(' ')).slice(0, 300)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function item(text: string, ...uuids: string[]): DigestItem {
  return { text, sources: [...new Set(uuids.filter((uuid) => uuid !== '').map(shortId))] }
}

/** The last substantive closing text, unless it only answered a late notice. */
function pickWrapUp(closings: Closing[]): Closing | null {
  const candidates = closings.filter((closing) => closing.trigger !== 'notice')
  for (let index = candidates.length - 1; index >= 0; index--) {
    const closing = candidates[index] as Closing
    if (markdownLines(closing.text).join(' ').length >= WRAP_UP_CHARS) return closing
  }
  return candidates.at(-1) ?? null
}

function commitsOf(material: DigestMaterial): DigestItem[] {
  const bySubject = new Map<string, DigestItem>()
  for (const commit of material.commits) {
    bySubject.delete(commit.subject) // a retried commit keeps its last, successful attempt
    const hash = commit.hash === null ? '' : `${code(commit.hash.slice(0, 7))} `
    bySubject.set(commit.subject, item(`${hash}${commit.subject}`, commit.uuid))
  }
  return [...bySubject.values()]
}

/**
 * Rules for next time the wrap-up states outright ("When adding endpoints, register them in
 * src/routes.ts first."): conventions the next session must follow, kept with the decisions.
 */
function wrapUpRules(wrapUp: Closing | null): DigestItem[] {
  if (wrapUp === null) return []
  return sentencesOf(markdownLines(wrapUp.text).join(' '))
    .filter((sentence) => RULE_FOR_NEXT_TIME.test(sentence))
    .slice(0, 2)
    .map((sentence) => item(sentence, wrapUp.uuid))
}

/**
 * The session's decisions: from the summaries' accounts of what was decided and solved (not their
 * list of concepts, which names what the code uses, not what was chosen), and the choices the
 * agent stated and acted on.
 */
function decisionsOf(material: DigestMaterial, sections: Array<Map<string, string>>): DigestItem[] {
  const fromSummaries = sections.flatMap((found, index) =>
    ['problem solving', 'decisions'].flatMap((title) =>
      sectionBullets(sectionNamed(found, title)).flatMap((bullet) =>
        decisionCandidates(
          [bullet.text, ...bullet.children].join('\n'),
          material.compactions[index]?.uuid ?? '',
          1,
        ),
      ),
    ),
  )
  return pickDecisions([...fromSummaries, ...material.decisions], MAX_DECISIONS).map((decision) =>
    item(decision.text, decision.uuid),
  )
}

function doneOf(material: DigestMaterial, wrapUp: Closing | null): DigestItem[] {
  const done: DigestItem[] = []
  const closed = [...material.tasks.values()].filter((task) => isFinishedStatus(task.status))
  const withReason = closed.filter((task) => task.note !== '')
  const bare = closed.filter((task) => task.note === '')
  if (bare.length > 0)
    done.push(
      item(
        `Closed ${bare.map((task) => code(task.id)).join(', ')}.`,
        ...bare.flatMap((task) => task.uuids.slice(-1)),
      ),
    )
  for (const task of withReason)
    done.push(
      item(`Closed ${code(task.id)}: ${leadingSentences(task.note, 240)}`, ...task.uuids.slice(-1)),
    )
  const todos = material.todos?.events.filter((todo) => isFinishedStatus(todo.status)) ?? []
  if (todos.length > 0 && material.todos !== null)
    done.push(
      item(
        `Todos done: ${leadingSentences(todos.map((todo) => todo.id).join('; '), 300)}`,
        material.todos.uuid,
      ),
    )
  const lastTest = [...material.testRuns].reverse().find((run) => run.figure !== null)
  if (lastTest?.ok)
    done.push(
      item(
        `Last test run (${code(leadingSentences(oneLine(lastTest.command), 80))}): ${lastTest.figure}.`,
        lastTest.uuid,
      ),
    )
  const push = material.pushes.at(-1)
  if (push !== undefined) done.push(item(`Pushed (${code(push.text)}).`, push.uuid))
  if (wrapUp !== null) {
    const lines = markdownLines(wrapUp.text)
      .slice(1)
      .filter((line) => !OPEN_MARKERS.test(line))
    if (lines.length > 0)
      done.push(
        item(`Wrap-up: ${leadingSentences(lines.map(endSentence).join(' '), 700)}`, wrapUp.uuid),
      )
  }
  return done
}

function openOf(material: DigestMaterial, wrapUp: Closing | null): DigestItem[] {
  const open: DigestItem[] = []
  for (const task of material.tasks.values()) {
    if (isFinishedStatus(task.status)) continue
    const note = task.note === '' ? '' : `: ${leadingSentences(task.note, 200)}`
    open.push(
      item(`${code(task.id)} is ${task.status.replace('_', ' ')}${note}`, ...task.uuids.slice(-1)),
    )
  }
  const todos = material.todos?.events.filter((todo) => !isFinishedStatus(todo.status)) ?? []
  if (todos.length > 0 && material.todos !== null)
    open.push(
      item(
        `Todos not done: ${leadingSentences(todos.map((todo) => `${todo.id} (${todo.status})`).join('; '), 300)}`,
        material.todos.uuid,
      ),
    )
  const lastRun = material.testRuns.at(-1)
  if (lastRun !== undefined && !lastRun.ok)
    open.push(
      item(
        `The last test run failed (${code(leadingSentences(oneLine(lastRun.command), 80))})${lastRun.figure === null ? '' : `: ${lastRun.figure}`}.`,
        lastRun.uuid,
      ),
    )
  const failing = material.errors.all.filter(
    (failure) =>
      !failure.fixed &&
      !failure.fromHook &&
      material.errors.isOpen(failure.key) &&
      !runsTests(failure.command),
  )
  const lastFailure = failing.at(-1)
  if (
    lastFailure !== undefined &&
    /\b(?:build|compile|lint|check|push|deploy)\b/.test(lastFailure.key)
  )
    open.push(
      item(`Still failing at the end: ${describeErrorFix(lastFailure)}`, ...lastFailure.sources),
    )
  if (wrapUp !== null) {
    const lines = markdownLines(wrapUp.text)
    for (const sentence of sentencesOf(lines.join(' ')).filter((text) =>
      LABELLED_OPEN.test(text),
    )) {
      const problem = sentence.replace(LABELLED_OPEN, '')
      open.push(item(problem.charAt(0).toUpperCase() + problem.slice(1), wrapUp.uuid))
    }
    for (const line of wrapUpOpenLines(wrapUp.text)
      .filter((text) => !LABELLED_OPEN.test(text))
      .slice(0, 3))
      open.push(item(`From the wrap-up: ${leadingSentences(line, 240)}`, wrapUp.uuid))
  }
  return open
}

function endSentence(text: string): string {
  const trimmed = text.trim()
  return /[.!?…:)`"']$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/** Every item's text with secrets replaced by markers and project paths made relative. */
function redacted(digest: SessionDigest): SessionDigest {
  const cwd = digest.project
  const tidy = (text: string) => {
    const clean = redactSecrets(text)
    if (cwd === null || cwd.length < 2) return clean
    return clean.replaceAll(`${cwd}/`, '').replaceAll(cwd, '.')
  }
  const clean = (items: DigestItem[]) =>
    items.map((entry) => ({ ...entry, text: tidy(entry.text) }))
  return {
    ...digest,
    summary:
      digest.summary === null ? null : { ...digest.summary, text: tidy(digest.summary.text) },
    changes: digest.changes.map((area) => ({
      area: redactSecrets(area.area),
      items: clean(area.items),
    })),
    commits: clean(digest.commits),
    decisions: clean(digest.decisions),
    gotchas: clean(digest.gotchas),
    done: clean(digest.done),
    open: clean(digest.open),
    preferences: clean(digest.preferences),
    workflow: clean(digest.workflow ?? []),
  }
}
