/**
 * Folding one session's new patterns into the domain files (seed 002 items 3 and 7): an entry the
 * same session already wrote is updated, not repeated (Stop may encode a session before SessionEnd
 * does); the same lesson from another session is a new entry, since occurrences are what
 * consolidation counts; and an entry the new one contradicts is kept, marked superseded and
 * linked both ways, so two entries that disagree are never both active.
 */
import { contentStems } from '../extractive/text.ts'
import { cosine, inverseDocumentFrequency, tfIdfVector } from '../extractive/tfidf.ts'
import { entryId, type PatternEntry, type PatternFile } from './pattern-entry.ts'

/** A pattern found in a session, before it gets its id, date and status. */
export type PatternCandidate = Omit<
  PatternEntry,
  'id' | 'date' | 'status' | 'supersededBy' | 'supersedes'
>

/** What encoding changed, and the files to write. */
export interface EncodePlan {
  /** Domain → the file's new contents, only for files that change. */
  files: Map<string, PatternFile>
  added: PatternEntry[]
  /** Entries this session had already written, refreshed. */
  updated: PatternEntry[]
  /** Old entries a new one contradicted: `{ old, by }` ids. */
  superseded: { old: string; by: string; domain: string }[]
}

/** Same session, at least this similar: the same entry again. */
const SAME_ENTRY_SIMILARITY = 0.5
/** About the same thing: a disagreement between these is a contradiction. */
const SAME_SUBJECT_SIMILARITY = 0.3
/** Nearly the same claim: one negating what the other asserts is a contradiction. */
const SAME_CLAIM_SIMILARITY = 0.5

/**
 * Words by which a statement corrects what it is about. Not "instead": a fix says "use X instead
 * of Y" as often as a correction does, and two sessions telling the same fix must both count.
 */
const CORRECTION =
  /\b(actually|turns? out|in fact|no longer|(?:is|was) wrong|incorrect|not true|does(?:n't| not) work|did(?:n't| not) work|won't work|will not work|stopped working|outdated|deprecated)\b/i
/**
 * Categories whose observation is a claim, so that one negating the other disagrees. A gotcha's
 * observation is a symptom, negative by nature ("fails", "no upstream"): two of them agree.
 */
const CLAIMS: ReadonlySet<PatternEntry['category']> = new Set([
  'convention',
  'user-preference',
  'brand-voice',
  'effective-approach',
  'architectural-decision',
])
const NEGATION = /\b(not|never|no|cannot|can't|doesn't|don't|isn't|won't|didn't|fails?|without)\b/i

/**
 * Plans how `candidates` from session `sessionId` on `date` join `existing` (domain → file).
 * Pure: the caller reads the files before and writes `files` after, under one lock.
 */
export function planEncode(input: {
  existing: ReadonlyMap<string, PatternFile>
  candidates: readonly PatternCandidate[]
  sessionId: string
  date: string
}): EncodePlan {
  const files = new Map<string, PatternFile>()
  const plan: EncodePlan = { files, added: [], updated: [], superseded: [] }
  const fileOf = (domain: string): PatternFile => {
    let file = files.get(domain)
    if (!file) {
      const old = input.existing.get(domain)
      file = { preamble: old?.preamble ?? '', entries: [...(old?.entries ?? [])] }
      files.set(domain, file)
    }
    return file
  }
  const allTexts = [...input.existing.values()].flatMap((file) => file.entries.map(textOf))
  const idf = inverseDocumentFrequency(
    [...allTexts, ...input.candidates.map(textOf)].map(contentStems),
  )
  const vectorOf = (item: PatternCandidate | PatternEntry) =>
    tfIdfVector(contentStems(textOf(item)), idf)
  for (const candidate of input.candidates) {
    const file = fileOf(candidate.domain)
    const vector = vectorOf(candidate)
    const mine = file.entries.find(
      (entry) =>
        entry.sources[0] === input.sessionId &&
        entry.status === 'active' &&
        entry.category === candidate.category &&
        cosine(vectorOf(entry), vector) >= SAME_ENTRY_SIMILARITY,
    )
    if (mine) {
      const refreshed: PatternEntry = {
        ...mine,
        ...candidate,
        tags: union(mine.tags, candidate.tags),
        sources: union(mine.sources, candidate.sources),
        id: mine.id,
        date: mine.date,
      }
      file.entries[file.entries.indexOf(mine)] = refreshed
      plan.updated.push(refreshed)
      continue
    }
    const entry: PatternEntry = {
      ...candidate,
      id: uniqueId(entryId(input.date, candidate.title, candidate.observation), file.entries),
      date: input.date,
      status: 'active',
    }
    const contradicted = file.entries.filter(
      (other) =>
        other.status === 'active' &&
        other.sources[0] !== input.sessionId &&
        contradicts(candidate, other, cosine(vectorOf(other), vector)),
    )
    for (const old of contradicted) {
      file.entries[file.entries.indexOf(old)] = {
        ...old,
        status: 'superseded',
        supersededBy: entry.id,
      }
      plan.superseded.push({ old: old.id, by: entry.id, domain: candidate.domain })
    }
    if (contradicted[0]) entry.supersedes = contradicted[0].id
    file.entries.push(entry)
    plan.added.push(entry)
  }
  return plan
}

/**
 * True when `candidate` disagrees with `old`: they are about the same thing, and the new one
 * corrects it ("actually", "instead", "doesn't work") or one negates what the other asserts.
 */
export function contradicts(
  candidate: Pick<PatternEntry, 'title' | 'observation' | 'details' | 'category'>,
  old: Pick<PatternEntry, 'title' | 'observation' | 'details' | 'category'>,
  similarity: number,
): boolean {
  if (similarity < SAME_SUBJECT_SIMILARITY) return false
  const fresh = `${candidate.title}. ${candidate.observation}. ${candidate.details}`
  const stale = `${old.title}. ${old.observation}. ${old.details}`
  if (CORRECTION.test(fresh) && !CORRECTION.test(stale)) return true
  // Negation alone is common in gotchas ("fails", "no upstream"): only a close restatement counts.
  return (
    similarity >= SAME_CLAIM_SIMILARITY &&
    candidate.category === old.category &&
    CLAIMS.has(candidate.category) &&
    NEGATION.test(candidate.observation) !== NEGATION.test(old.observation)
  )
}

function textOf(item: Pick<PatternEntry, 'title' | 'observation' | 'details'>): string {
  return `${item.title}. ${item.observation}. ${item.details}`
}

function union(left: readonly string[], right: readonly string[]): string[] {
  return [...new Set([...left, ...right])]
}

function uniqueId(id: string, entries: readonly PatternEntry[]): string {
  let candidate = id
  for (let suffix = 2; entries.some((entry) => entry.id === candidate); suffix += 1)
    candidate = `${id}-${suffix}`
  return candidate
}
