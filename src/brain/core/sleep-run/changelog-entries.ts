/** Changelog lines for the sessions a sleep consolidates: one per session that changed files. */
import { summaryOutcome } from '../../../engine/core/digest/digest-summary.ts'
import type { SessionDigest } from '../../../engine/core/digest/session-digest.ts'
import { redactSecrets } from '../../../engine/core/redact-secrets.ts'
import type { SessionRecord } from '../sleep-state.ts'

/** One entry of `core/CHANGELOG.json` (newest first), with the session it came from. */
export interface ChangelogEntry {
  date: string
  type: 'feat' | 'fix' | 'refactor' | 'docs' | 'chore'
  message: string
  sources: string[]
}

/** A closing-summary sentence labelled as a known issue (`Known issue: CI is 3x slower…`). */
export const KNOWN_ISSUE_LABEL = /^(?:known (?:issue|limitation)s?|caveat|limitation):\s+(?=\S)/i
/** A closing-summary sentence that states a rule for next time (`When adding endpoints, …`). */
export const RULE_SENTENCE = /^(?:when|whenever|before)\s+[^,.]{3,80},\s*\S/i
/** A sentence that states a decision (`Decided to…`, `We chose…`): memory keeps it, with its reason. */
const DECISION_SENTENCE = /^(?:decided|we (?:decided|chose|went with)|chose)\b/i

const MAX_MESSAGE_CHARS = 160
/** A digest's message keeps whole sentences up to about this length (never cut mid-sentence). */
const MAX_DIGEST_MESSAGE_CHARS = 400

/**
 * Entries for sessions with file changes and a closing message, skipping sessions already cited
 * by an existing entry (so a repeated run adds nothing). The message is the first sentence of
 * Claude's own closing summary, which seed 000 calls the most valuable piece of data
 * (docs/design/origins.md).
 */
export function changelogEntries(
  sessions: readonly SessionRecord[],
  existing: readonly unknown[],
  digests: readonly SessionDigest[] = [],
): ChangelogEntry[] {
  const digestOf = new Map(digests.map((digest) => [digest.sessionId, digest]))
  const cited = citedIds(existing)
  return sessions
    .filter((session) => !cited.has(session.session_id))
    .flatMap((session) => {
      const digest = digestOf.get(session.session_id)
      const entry = digest ? digestEntry(digest, session) : closingMessageEntry(session)
      return entry ? [entry] : []
    })
}

/** Every source id the existing entries cite. */
function citedIds(existing: readonly unknown[]): Set<string> {
  return new Set(
    existing.flatMap((entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      Array.isArray((entry as { sources?: unknown }).sources)
        ? ((entry as { sources: unknown[] }).sources.filter(
            (id) => typeof id === 'string',
          ) as string[])
        : [],
    ),
  )
}

/**
 * What a digested session changed: its summary, else its commit subjects, else the areas it
 * touched. Null for a session that changed nothing and committed nothing.
 */
function digestEntry(digest: SessionDigest, session: SessionRecord): ChangelogEntry | null {
  const changed = digest.changes.some((area) => area.items.length > 0)
  if (!changed && digest.commits.length === 0) return null
  // A commit subject says what changed in the author's own words; the hash is in the digest.
  const commits = digest.commits
    .map((commit) => flatten(commit.text).replace(/^[0-9a-f]{7,40}\s+/, ''))
    .filter(Boolean)
  // The request that opened the session is not what changed: the changelog keeps the outcome.
  const outcome = digest.summary ? summaryOutcome(flatten(digest.summary.text)) : ''
  // What changed, not what to mind or why: lessons and decisions go to memory (digest-entries.ts).
  const summary = wholeSentences(
    sentencesOf(outcome)
      .filter(
        (sentence) =>
          // A change is told in the past ("Added…", "Wrote…"); "The work is due on…" is not one.
          PAST_TENSE.test(sentence) &&
          ![KNOWN_ISSUE_LABEL, RULE_SENTENCE, DECISION_SENTENCE].some((rule) =>
            rule.test(sentence),
          ),
      )
      .join(' '),
  )
  const message =
    commits.length > 0
      ? commitList(commits)
      : substantive(summary)
        ? summary
        : changedFiles(digest.changes)
  return {
    date: (digest.date ?? session.stopped_at ?? '').slice(0, 10),
    type: commitType(commits) ?? changeType(message),
    message: redactSecrets(message),
    sources: [
      session.session_id,
      ...new Set([
        ...digest.commits.flatMap((commit) => commit.sources),
        ...(digest.summary?.sources ?? []),
      ]),
    ],
  }
}

/**
 * A past tense or participle, regular ("added", "fixed") or one of the irregular ones a wrap-up
 * uses ("wrote", "chose", "ran"): how a sentence says something was done.
 */
const PAST_TENSE =
  /\b[A-Za-z]\w+ed\b|\b(?:(?:re|over)?wr(?:ote|itten)|(?:re)?built|(?:re)?made|(?:re)?ran|found|took|taken|kept|got|gotten|did|done|chose|chosen|gave|given|brought|began|begun|split|cut|put|sent|spent|left|caught|threw|thrown|broke|broken|(?:un|re)?did|undone|overrode|overridden|hid|hidden|led|won|bound|drew|drawn|tore|torn|shut)\b/i

/** How many files a changelog entry names before it names their folders instead. */
const FILES_NAMED = 3

/**
 * What changed, from the digest's file list: "Added docs/caching.md." for a few files (`(new)`
 * ones added), else the folders ("Changed files in src/, test/.").
 */
function changedFiles(changes: SessionDigest['changes']): string {
  const files: { path: string; created: boolean }[] = []
  let named = true
  for (const { area, items } of changes) {
    // Only a folder's files can be named whole (a theme's items are not paths below it).
    if (!area.endsWith('/') || items.some((item) => /\band \d+ more\b/.test(item.text)))
      named = false
    for (const item of items)
      for (const [, path = '', created] of item.text.matchAll(/`([^`]+)`( \(new\))?/g))
        files.push({
          path:
            area === './' || path.startsWith('/') || path.startsWith('~') ? path : `${area}${path}`,
          created: created !== undefined,
        })
  }
  if (named && files.length > 0 && files.length <= FILES_NAMED) {
    const paths = files.map((file) => file.path)
    const list =
      paths.length === 1 ? paths[0] : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`
    return `${files.every((file) => file.created) ? 'Added' : 'Changed'} ${list}.`
  }
  const areas = changes.map((area) => area.area)
  return `Changed files in ${areas.slice(0, 4).join(', ')}${areas.length > 4 ? ' and more' : ''}.`
}

/** A session without a digest: the first sentence of its closing message, when it says something. */
function closingMessageEntry(session: SessionRecord): ChangelogEntry | null {
  if ((session.change_count ?? 0) === 0 || !session.last_assistant_message) return null
  // Ledgers written before redaction existed may still hold a secret in a closing message.
  const message = firstSentence(redactSecrets(session.last_assistant_message))
  if (!substantive(message)) return null
  return {
    date: (session.stopped_at ?? '').slice(0, 10),
    type: changeType(message),
    message,
    sources: [session.session_id],
  }
}

/**
 * False for a closing formula that says nothing about what changed ("All done.", "All pushed.",
 * "Done!"): a changelog entry must name the change.
 */
function substantive(message: string): boolean {
  const words = message.match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*/gu) ?? []
  if (words.length < 4) return false
  return !/^(?:all |everything |it's |that's )?(?:done|pushed|set|good|finished|complete)\b/i.test(
    message.trim(),
  )
}

function flatten(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/[*`>_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Whole commit subjects, `; `-separated, as many as fit, then how many more there were. */
function commitList(commits: readonly string[]): string {
  let message = ''
  let shown = 0
  for (const commit of commits) {
    const next = message === '' ? commit : `${message}; ${commit}`
    if (message !== '' && next.length > MAX_DIGEST_MESSAGE_CHARS) break
    message = next
    shown += 1
  }
  const more = commits.length - shown
  return more > 0 ? `${message} (and ${more} more commit${more > 1 ? 's' : ''})` : message
}

/** As many whole sentences as fit in MAX_DIGEST_MESSAGE_CHARS; at least the first one, whole. */
function wholeSentences(text: string): string {
  const sentences = sentencesOf(text)
  let message = ''
  for (const sentence of sentences) {
    const next = `${message} ${sentence.trim()}`.trim()
    if (message !== '' && next.length > MAX_DIGEST_MESSAGE_CHARS) break
    message = next
  }
  return message
}

/**
 * Sentences: a stop (`.`, `!`, `?`) followed by a space and a capital, digit or quote ends one, so
 * `docs/caching.md` and `e.g. this` stay whole.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?]["')\]]?)\s+(?=["'([`]?[\p{Lu}\p{N}])/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '')
}

/** The conventional-commit type most of the session's commits share (`feat: …`), if any. */
function commitType(commits: readonly string[]): ChangelogEntry['type'] | null {
  const counts = new Map<ChangelogEntry['type'], number>()
  for (const commit of commits) {
    const type = /^(feat|fix|refactor|docs|chore|test|ci|build|perf)(?:\([^)]*\))?!?:/i
      .exec(commit)?.[1]
      ?.toLowerCase()
    if (!type) continue
    const kind: ChangelogEntry['type'] =
      type === 'feat' || type === 'fix' || type === 'refactor' || type === 'docs'
        ? type
        : type === 'perf'
          ? 'refactor'
          : 'chore'
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  let best: ChangelogEntry['type'] | null = null
  for (const [kind, count] of counts)
    if (best === null || count > (counts.get(best) ?? 0)) best = kind
  return best
}

function firstSentence(text: string): string {
  const flat = text
    .replace(/[#*`>_]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const end = flat.search(/[.!?](\s|$)/)
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat
  return sentence.length <= MAX_MESSAGE_CHARS
    ? sentence
    : `${sentence.slice(0, MAX_MESSAGE_CHARS - 1).replace(/\s+\S*$/, '')}…`
}

function changeType(message: string): ChangelogEntry['type'] {
  if (/\b(fix|fixed|fixes|bug|repair)/i.test(message)) return 'fix'
  // "Added GET /health with a test beside it" is a feature, whatever else it mentions.
  if (/^(?:add(?:ed|s)?|implement(?:ed|s)?|creat(?:ed|es)|introduc(?:ed|es))\b/i.test(message))
    return 'feat'
  if (/\brefactor/i.test(message)) return 'refactor'
  if (/\b(docs?|readme|documentation)\b/i.test(message)) return 'docs'
  if (/\b(test|tests|ci|chore|bump|dependenc)/i.test(message)) return 'chore'
  return 'feat'
}
