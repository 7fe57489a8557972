/**
 * Folding one session's patterns into the domain files (seed 002 items 3 and 7,
 * docs/design/origins.md). Each encode of a session reads its whole transcript, so its candidates
 * are the session's lessons, all of them: they replace what earlier (partial) encodes of the same
 * session wrote, an entry keeping its id when it tells the same lesson again, and no two candidates
 * are ever merged into one entry (two lessons stay two, whatever else the folder holds). The same
 * lesson from another session is a new entry, since occurrences are what consolidation counts; an
 * entry the new one contradicts is kept, marked superseded and linked both ways, so two entries
 * that disagree are never both active. Ids are never issued twice in a folder (`issuedIds`), even
 * after their entry is gone.
 */
import { contentStems } from '../../engine/core/extractive/text.ts'
import {
  cosine,
  inverseDocumentFrequency,
  tfIdfVector,
} from '../../engine/core/extractive/tfidf.ts'
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
  /** Entries of earlier encodes of this session that its whole reading no longer finds. */
  removed: PatternEntry[]
  /** Old entries a new one contradicted: `{ old, by }` ids. */
  superseded: { old: string; by: string; domain: string }[]
  /** Ids issued by this plan (to record, so they are never issued again). */
  issued: string[]
}

/** An earlier entry of the same session at least this similar (and of its category) is the same lesson. */
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
 * Plans how `candidates`, all the lessons of session `sessionId` on `date`, join `existing`
 * (domain → file). Pure: the caller reads the files and the issued ids before, and writes `files`
 * and records `issued` after, under one lock. `skip` holds ids whose lesson already left the
 * files for a skill: that lesson is not written again.
 */
export function planEncode(input: {
  existing: ReadonlyMap<string, PatternFile>
  candidates: readonly PatternCandidate[]
  sessionId: string
  date: string
  issuedIds?: ReadonlySet<string>
  skip?: ReadonlySet<string>
}): EncodePlan {
  const issuedIds = new Set(input.issuedIds ?? [])
  const files = new Map<string, PatternFile>()
  const plan: EncodePlan = {
    files,
    added: [],
    updated: [],
    removed: [],
    superseded: [],
    issued: [],
  }
  const fileOf = (domain: string): PatternFile => {
    let file = files.get(domain)
    if (!file) {
      const old = input.existing.get(domain)
      file = { preamble: old?.preamble ?? '', entries: [...(old?.entries ?? [])] }
      files.set(domain, file)
    }
    return file
  }
  const candidates = distinct(input.candidates)
  const earlier = [...input.existing.values()].flatMap((file) =>
    file.entries.filter((entry) => entry.sources[0] === input.sessionId),
  )
  const claims = matchEarlier(earlier, candidates)
  // Contradictions are judged against the folder's vocabulary: they are about other sessions.
  const allTexts = [...input.existing.values()].flatMap((file) => file.entries.map(textOf))
  const idf = inverseDocumentFrequency([...allTexts, ...candidates.map(textOf)].map(contentStems))
  const vectorOf = (item: PatternCandidate | PatternEntry) =>
    tfIdfVector(contentStems(textOf(item)), idf)
  for (const [index, candidate] of candidates.entries()) {
    const mine = claims.get(index)
    if (mine) {
      const refreshed: PatternEntry = {
        ...mine,
        ...candidate,
        tags: union(mine.tags, candidate.tags),
        sources: union(candidate.sources, mine.sources),
        id: mine.id,
        date: mine.date,
      }
      // The lesson may now belong to another domain: it moves there, in its place otherwise.
      const from = fileOf(mine.domain)
      const at = from.entries.findIndex((entry) => entry.id === mine.id)
      if (mine.domain === candidate.domain && at !== -1) from.entries[at] = refreshed
      else {
        from.entries = from.entries.filter((entry) => entry.id !== mine.id)
        fileOf(candidate.domain).entries.push(refreshed)
      }
      plan.updated.push(refreshed)
      continue
    }
    const natural = entryId(input.date, candidate.title, candidate.observation, input.sessionId)
    if (input.skip?.has(natural)) continue
    const id = freshId(natural, issuedIds)
    issuedIds.add(id)
    plan.issued.push(id)
    const file = fileOf(candidate.domain)
    const entry: PatternEntry = { ...candidate, id, date: input.date, status: 'active' }
    const vector = vectorOf(candidate)
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
  // What an earlier, partial encode wrote and the whole session no longer says goes.
  const kept = new Set([...claims.values()].map((entry) => entry.id))
  for (const entry of earlier) {
    if (kept.has(entry.id) || entry.status !== 'active') continue
    const file = fileOf(entry.domain)
    file.entries = file.entries.filter((other) => other.id !== entry.id)
    plan.removed.push(entry)
  }
  for (const [domain, file] of files) {
    const before = input.existing.get(domain)
    if (before && sameEntries(before.entries, file.entries)) files.delete(domain)
  }
  return plan
}

/** Candidates without exact repeats (the same lesson told twice in one reading). */
function distinct(candidates: readonly PatternCandidate[]): PatternCandidate[] {
  const seen = new Set<string>()
  return candidates.filter((candidate) => {
    const key = `${candidate.category}\n${textOf(candidate)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * Which earlier entry of the session each candidate tells again: the same title and observation,
 * else the most similar one of its category (similarity over the session's own texts only, so
 * the folder's other entries never change the answer). One earlier entry per candidate at most.
 */
function matchEarlier(
  earlier: readonly PatternEntry[],
  candidates: readonly PatternCandidate[],
): Map<number, PatternEntry> {
  const claims = new Map<number, PatternEntry>()
  const taken = new Set<string>()
  const active = earlier.filter((entry) => entry.status === 'active')
  candidates.forEach((candidate, index) => {
    const same = active.find(
      (entry) =>
        !taken.has(entry.id) &&
        entry.title === candidate.title &&
        entry.observation === candidate.observation,
    )
    if (same) {
      claims.set(index, same)
      taken.add(same.id)
    }
  })
  const idf = inverseDocumentFrequency(
    [...active.map(textOf), ...candidates.map(textOf)].map(contentStems),
  )
  const vectorOf = (item: PatternCandidate | PatternEntry) =>
    tfIdfVector(contentStems(textOf(item)), idf)
  const pairs: { index: number; entry: PatternEntry; score: number }[] = []
  candidates.forEach((candidate, index) => {
    if (claims.has(index)) return
    const vector = vectorOf(candidate)
    for (const entry of active) {
      if (taken.has(entry.id) || entry.category !== candidate.category) continue
      const score = cosine(vectorOf(entry), vector)
      if (score >= SAME_ENTRY_SIMILARITY) pairs.push({ index, entry, score })
    }
  })
  for (const pair of pairs.sort((left, right) => right.score - left.score)) {
    if (claims.has(pair.index) || taken.has(pair.entry.id)) continue
    claims.set(pair.index, pair.entry)
    taken.add(pair.entry.id)
  }
  return claims
}

/** `natural`, or with the first `-<n>` suffix never issued before. */
function freshId(natural: string, issued: ReadonlySet<string>): string {
  let candidate = natural
  for (let suffix = 2; issued.has(candidate); suffix += 1) candidate = `${natural}-${suffix}`
  return candidate
}

function sameEntries(left: readonly PatternEntry[], right: readonly PatternEntry[]): boolean {
  return JSON.stringify(left) === JSON.stringify(right)
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
