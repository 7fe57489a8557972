/**
 * The rubric of bench/README.md ("Pattern learning: the rubric and the reader's lessons") applied
 * mechanically: each pattern entry is useful, marginal or noise by the reader's lessons of its own
 * session (bench/pattern-lessons.json), and each lesson is recalled when some entry states it.
 */
import { readFileSync } from 'node:fs'
import type { PatternEntry } from '../src/patterns/core/pattern-entry.ts'

/** One lesson of one session, as the reader wrote it. */
export interface ReaderLesson {
  id: string
  /** Short name of the session (a key of `sessions`). */
  session: string
  /** Shared by the rows of one lesson told by several sessions. */
  subject: string
  kind: string
  weight: 'core' | 'minor'
  lesson: string
  match: string[][]
  remedy: string[][]
  order?: string[]
}

/** What an entry must not state (a dropped idea, a wrong pairing). */
export interface NotLesson {
  id: string
  session: string
  why: string
  match: string[][]
}

/** The reader's list. */
export interface ReaderLessons {
  sessions: Record<string, string>
  lessons: ReaderLesson[]
  not_lessons: NotLesson[]
}

/** How one entry was judged. */
export interface EntryVerdict {
  entry: PatternEntry
  verdict: 'useful' | 'marginal' | 'noise'
  /** The lesson it states, or is about (noise with a lesson: its remedy is not the one that worked). */
  lesson: ReaderLesson | null
  wrongFix: boolean
  why: string
}

const GOTCHA_KINDS = new Set(['gotcha', 'tool-failure', 'workaround', 'debugging-insight'])

/** Reads a lessons file. */
export function readReaderLessons(path: string): ReaderLessons {
  return JSON.parse(readFileSync(path, 'utf8')) as ReaderLessons
}

/** The entry's subject and remedy texts, lower case (see the rubric). */
export function entryTexts(entry: PatternEntry): { subject: string; remedy: string } {
  const gotcha = GOTCHA_KINDS.has(entry.category)
  const fixAt = gotcha ? entry.details.search(/\bFix:/) : -1
  const remedy = fixAt === -1 ? entry.details : entry.details.slice(fixAt)
  // A gotcha's cause says what it is about; a decision's details are its reason, not its subject;
  // a rule's details are the rule itself.
  const more = gotcha
    ? entry.details.slice(0, Math.max(0, fixAt))
    : entry.category === 'architectural-decision'
      ? ''
      : entry.details
  return {
    subject: `${entry.title}\n${entry.observation}\n${more}`.toLowerCase(),
    remedy: remedy.toLowerCase(),
  }
}

function family(kind: string): string {
  return GOTCHA_KINDS.has(kind) ? 'gotcha' : kind
}

function sameKind(lesson: ReaderLesson, entry: PatternEntry): boolean {
  return family(lesson.kind) === family(entry.category)
}

function hits(groups: readonly string[][], text: string): boolean {
  return groups.every((group) =>
    group.some((alternative) => text.includes(alternative.toLowerCase())),
  )
}

function inOrder(words: readonly string[] | undefined, text: string): boolean {
  let from = 0
  for (const word of words ?? []) {
    const at = text.indexOf(word.toLowerCase(), from)
    if (at === -1) return false
    from = at + word.length
  }
  return true
}

/** Judges `entries` (each citing its session first) against `reader`. */
export function judgeEntries(
  entries: readonly PatternEntry[],
  reader: ReaderLessons,
): EntryVerdict[] {
  const shortOf = new Map(Object.entries(reader.sessions).map(([short, id]) => [id, short]))
  const stated = new Set<string>()
  return entries.map((entry) => {
    const session = shortOf.get(entry.sources[0] ?? '') ?? ''
    const { subject, remedy } = entryTexts(entry)
    // Lessons of the entry's own kind first: a preference quoting a hook's failure is about the
    // preference, not about the failure.
    const about = reader.lessons
      .filter((lesson) => lesson.session === session && hits(lesson.match, subject))
      .sort((left, right) => Number(!sameKind(left, entry)) - Number(!sameKind(right, entry)))
    const stating = about.filter(
      (lesson) => hits(lesson.remedy, remedy) && inOrder(lesson.order, remedy),
    )
    // An entry that states two lessons counts for the one no other entry has stated yet.
    const right = stating.find((lesson) => !stated.has(lesson.id)) ?? stating[0]
    if (right) {
      const again = stated.has(right.id)
      stated.add(right.id)
      const useful = right.weight === 'core' && !again
      return {
        entry,
        verdict: useful ? 'useful' : 'marginal',
        lesson: right,
        wrongFix: false,
        why: again ? `again: ${right.id}` : right.id,
      }
    }
    if (about[0]) {
      const wrongFix = GOTCHA_KINDS.has(entry.category) && /\bfix:/.test(remedy)
      return {
        entry,
        verdict: 'noise',
        lesson: about[0],
        wrongFix,
        why: `${wrongFix ? 'wrong fix' : 'remedy not stated'} for ${about[0].id}`,
      }
    }
    const not = reader.not_lessons.find(
      (item) => item.session === session && hits(item.match, `${subject}\n${remedy}`),
    )
    return {
      entry,
      verdict: 'noise',
      lesson: null,
      wrongFix: false,
      why: not ? `${not.id}: ${not.why}` : 'no lesson of the list',
    }
  })
}

/** Recall of the reader's lessons by `verdicts`: all rows, the core ones, and the missed ids. */
export function lessonRecall(verdicts: readonly EntryVerdict[], reader: ReaderLessons) {
  const stated = new Set(
    verdicts.filter((verdict) => verdict.verdict !== 'noise').map((verdict) => verdict.lesson?.id),
  )
  const core = reader.lessons.filter((lesson) => lesson.weight === 'core')
  return {
    stated: reader.lessons.filter((lesson) => stated.has(lesson.id)).length,
    total: reader.lessons.length,
    coreStated: core.filter((lesson) => stated.has(lesson.id)).length,
    coreTotal: core.length,
    missed: reader.lessons.filter((lesson) => !stated.has(lesson.id)).map((lesson) => lesson.id),
  }
}
