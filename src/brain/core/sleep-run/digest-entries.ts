/**
 * Routing a session digest into the core files, by what each item is: decisions and gotchas to
 * memory, what is still open to Known Issues, the user's preferences to the user file, and what
 * the closing summary names as a known issue or a rule for next time (wrapUpLessons). Finished
 * work never becomes an open item: it goes to the changelog (changelog-entries.ts) and closes the
 * open items it finishes (resolvedIssues).
 */
import { isDiagnosis } from '../../../engine/core/digest/digest-decisions.ts'
import { summaryOutcome } from '../../../engine/core/digest/digest-summary.ts'
import type { DigestItem, SessionDigest } from '../../../engine/core/digest/session-digest.ts'
import { factsOf, lineText, overlap } from '../../../engine/core/extractive/similar-lines.ts'
import type { Priority } from '../../../engine/core/model-results.ts'
import { KNOWN_ISSUE_LABEL, RULE_SENTENCE, sentencesOf } from './changelog-entries.ts'
import { CORE_FILES, type Destination, isNarration } from './route-observation.ts'

/** The `## ` sections of the memory file a digest fills. */
export const MEMORY_SECTIONS = {
  decisions: 'Technical Decisions',
  gotchas: 'Gotchas',
  open: 'Known Issues',
} as const

/** One line a digest contributes to a core file, before deduplication and caps. */
export interface DigestEntry {
  text: string
  /** `session:<first 8 of the session id>`, then the transcript record ids of the item. */
  sources: string[]
  destination: Destination
  priority: Priority
  /** The user's own words: may correct a value an older line states. */
  authoritative: boolean
}

/**
 * What each kind must show to earn a line in a core file; the rest stays in the digest, which
 * keeps everything. A preference or correction says so (a prompt like "continue" is neither); a
 * decision is stated as a fact, not the agent's narration of its next step; a gotcha says what
 * fixed it (an error alone is in the digest).
 */
const PREFERENCE_OR_CORRECTION =
  /\b(?:prefers?|preferred|always|never|please|rather|instead|don'?t|do not|stop|avoid|must|should|rejected|wants?|likes?|dislikes?)\b/i
const FIRST_PERSON = /\b(?:I|I'm|I'll|I've|I'd|me|my|let's)\b/
/** A refused tool call: the user said no to one action, which states no preference of theirs. */
const TOOL_REFUSAL = /^the user (?:rejected|refused|denied) an? \S+ (?:call|tool call|command)\b/i
/** A sentence that leans on the one before it ("But `x` is never called…"): no fact on its own. */
const CONTINUATION = /^(?:but|and|so|or|which|because|then|also)\b/i
/** An item that reports finished work ("Added 12 tests", "✅ spotter-4te.6"): not an open issue. */
const FINISHED_REPORT =
  /^(?:from the wrap-up:\s*)?(?:✅|✓|✔|☑|\[x\]|(?:added|implemented|fixed|created|wrote|closed|completed|finished|shipped|merged|pushed|done)\b)/i
const RESOLUTION = /→|\b(?:fix(?:ed|es)?|resolved?|solved|workaround|instead)\b/i

/** True when a digest item of `kind` belongs in a core file (see the rules above). */
export function belongsInCore(
  kind: 'open' | 'preferences' | 'decisions' | 'gotchas',
  text: string,
): boolean {
  if (kind === 'preferences') return PREFERENCE_OR_CORRECTION.test(text) && !TOOL_REFUSAL.test(text)
  if (kind === 'decisions')
    return (
      !FIRST_PERSON.test(text) &&
      !isNarration(text) &&
      !CONTINUATION.test(text) &&
      !isDiagnosis(text)
    )
  if (kind === 'gotchas') return RESOLUTION.test(text)
  return !FINISHED_REPORT.test(text)
}

/**
 * The part of an item a core file keeps: whole sentences only; of a preference quoted from a prompt ("Add a /health
 * endpoint. I prefer small modules."), the sentences that state the preference, unquoted.
 */
function coreText(kind: 'open' | 'preferences' | 'decisions' | 'gotchas', whole: string): string {
  // A text cut short (`…`) keeps its whole sentences only; a line never ends mid-sentence.
  const text = whole.endsWith('…') ? sentencesOf(whole).slice(0, -1).join(' ') : whole
  if (kind !== 'preferences' || text === '') return text
  // Only a prompt quoted whole is taken apart; a reported exchange stays as it was said.
  const quoted = /^"([^"]*)"$/.exec(text)?.[1]
  if (quoted === undefined) return text
  const stated = sentencesOf(quoted).filter((sentence) => PREFERENCE_OR_CORRECTION.test(sentence))
  return stated.length > 0 ? stated.join(' ') : text
}

/** How a core-file line cites the session a digest item came from. */
export function sessionSource(sessionId: string): string {
  return `session:${sessionId.slice(0, 8)}`
}

/**
 * The core-file lines of `digests`, most important first: what is still open (a next session must
 * not miss it), then the user's preferences, decisions and gotchas. Newer sessions come first
 * within each kind, so a per-section cap keeps the freshest.
 */
export function digestEntries(digests: readonly SessionDigest[]): DigestEntry[] {
  const newestFirst = [...digests].sort((left, right) =>
    (right.endedAt ?? '').localeCompare(left.endedAt ?? ''),
  )
  const entries: DigestEntry[] = []
  const add = (
    digest: SessionDigest,
    kind: 'open' | 'preferences' | 'decisions' | 'gotchas',
    destination: Destination,
    priority: Priority,
    authoritative: boolean,
  ) => {
    for (const item of digest[kind]) {
      const text = coreText(kind, entryText(item.text))
      if (text === '' || !belongsInCore(kind, text)) continue
      entries.push({
        text,
        sources: [sessionSource(digest.sessionId), ...item.sources],
        destination,
        priority,
        authoritative,
      })
    }
  }
  const memory = (section: string) => ({ path: CORE_FILES.memory, section })
  const lessons = new Map(newestFirst.map((digest) => [digest, wrapUpLessons(digest)]))
  for (const digest of newestFirst) {
    add(digest, 'open', memory(MEMORY_SECTIONS.open), 'RED', false)
    for (const lesson of lessons.get(digest)?.issues ?? [])
      entries.push(lessonEntry(digest, lesson, memory(MEMORY_SECTIONS.open), 'RED'))
  }
  for (const digest of newestFirst)
    add(digest, 'preferences', { path: CORE_FILES.user, section: 'Preferences' }, 'RED', true)
  for (const digest of newestFirst) {
    add(digest, 'decisions', memory(MEMORY_SECTIONS.decisions), 'YLW', false)
    for (const lesson of lessons.get(digest)?.rules ?? [])
      entries.push(lessonEntry(digest, lesson, memory(MEMORY_SECTIONS.decisions), 'YLW'))
  }
  for (const digest of newestFirst)
    add(digest, 'gotchas', memory(MEMORY_SECTIONS.gotchas), 'YLW', false)
  return entries
}

/**
 * What a session's closing summary states outright for the sessions after it: a known issue it
 * names as such, and a rule for next time. The digest keeps them in its summary; without this
 * they would reach only the changelog, which says what changed, not what to mind.
 */
export function wrapUpLessons(digest: SessionDigest): {
  issues: DigestItem[]
  rules: DigestItem[]
} {
  const summary = digest.summary
  if (summary === null) return { issues: [], rules: [] }
  // The request that opened the session is the user's, not the session's conclusion.
  const outcome = summaryOutcome(entryText(summary.text))
  const issues: DigestItem[] = []
  const rules: DigestItem[] = []
  for (const sentence of sentencesOf(outcome)) {
    if (sentence.endsWith('…')) continue
    if (KNOWN_ISSUE_LABEL.test(sentence)) {
      const text = sentence.replace(KNOWN_ISSUE_LABEL, '')
      issues.push({ text: text.charAt(0).toUpperCase() + text.slice(1), sources: summary.sources })
    } else if (RULE_SENTENCE.test(sentence) && belongsInCore('decisions', sentence)) {
      rules.push({ text: sentence, sources: summary.sources })
    }
  }
  return { issues, rules }
}

function lessonEntry(
  digest: SessionDigest,
  lesson: DigestItem,
  destination: Destination,
  priority: Priority,
): DigestEntry {
  return {
    text: lesson.text,
    sources: [sessionSource(digest.sessionId), ...lesson.sources],
    destination,
    priority,
    authoritative: false,
  }
}

/**
 * An item's text as one list entry: one line, without a bullet, number or checkbox of its own
 * (a digest item quoted from a list must not become `- - item`), without the `\n` escapes of a
 * quoted error output, and without a dangling colon.
 */
export function entryText(text: string): string {
  return text
    .replace(/\\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:(?:[-*+•]|\d+[.)]|\[[ xX]\])\s+)+/, '')
    .replace(/\s*:$/, '')
    .trim()
}

/** What finished during the digested sessions: closed tasks, passing checks, fixed errors. */
export function finishedItems(digests: readonly SessionDigest[]): DigestItem[] {
  return digests.flatMap((digest) => [...digest.done, ...digest.gotchas, ...digest.commits])
}

/**
 * The open-issue lines (`- ...` in Known Issues) that finished work closes. A line is closed when a
 * finished item names the same specific identifier (a task id like `spotter-4te.6`, a file path,
 * a version) or says mostly the same thing. Closed lines are archived, never dropped.
 */
export function resolvedIssues(
  lines: readonly string[],
  finished: readonly DigestItem[],
): string[] {
  if (finished.length === 0) return []
  const done = finished.map((item) => factsOf(item.text))
  return lines.filter((line) => {
    if (!/^\s*[-*] /.test(line)) return false
    const issue = factsOf(line)
    if (issue.words.size === 0) return false
    const identifiers = identifiersOf(issue)
    return done.some(
      (item) =>
        identifiers.some((identifier) => item.tokens.has(identifier)) ||
        (issue.subject.size >= 3 && overlap(issue.subject, item.subject) >= 0.6),
    )
  })
}

/**
 * True when two open-issue lines name the same specific piece of work (a task id like
 * `spotter-fum.5`, a file path): one issue said twice, to be merged into one line.
 */
export function sameIssue(left: string, right: string): boolean {
  const ids = identifiersOf(factsOf(left))
  if (ids.length === 0) return false
  const tokens = factsOf(right).tokens
  return ids.some((id) => tokens.has(id))
}

/**
 * Names and numbers specific enough to identify one piece of work: a letter and a digit, dot or
 * slash (`spotter-fum.5`, `src/auth.ts`), not a bare number or word.
 */
function identifiersOf(facts: ReturnType<typeof factsOf>): string[] {
  return [...facts.names, ...facts.numbers].filter(
    (token) => token.length >= 4 && /\p{L}/u.test(token) && /[0-9./]/.test(token),
  )
}

/** The text of an item without list marker or provenance (for messages and comparisons). */
export function plainItemText(line: string): string {
  return entryText(lineText(line))
}
