/**
 * The summarizer's choice of sentences: lazy greedy by value per token within a budget, and what
 * opening a unit costs (its speaker prefix and date header).
 */
import { countTokens } from '../tokens.ts'
import { featureBonus, WEIGHTS } from './features.ts'
import { MaxHeap } from './max-heap.ts'
import { priorityOf } from './priority.ts'
import { sentenceCosine, sentenceTerms } from './sentence-terms.ts'
import type { SentenceRecord, TextUnit } from './sentences.ts'
import { UnitOpenings } from './unit-openings.ts'
import { type UnitOverheads, unitOverheads } from './unit-overheads.ts'

/** A queued candidate (by its position in `records`) with the key it had when pushed: never below its current key. */
interface Entry {
  at: number
  /** RED sentences 2, other positive gains 1, the rest 0. */
  tier: number
  /** Value per token within the tier (plain gain in tier 0). */
  value: number
  version: number
}

/**
 * Greedy choice in order of value per token within `budget` tokens (sentence costs plus a speaker
 * prefix per opened unit and a header per opened date); returns the chosen records in order of choice.
 * Lazy greedy (CELF): a candidate's key only falls as sentences are chosen (its fresh weight
 * shrinks, its redundancy grows), except when its cost falls because its unit or date gets opened,
 * and then it is queued again. So the queue's top, once its key is brought up to date and still
 * tops the queue, is exactly the candidate a full rescan would pick (ties to the earliest sentence,
 * as before), and redundancy is computed only for the candidates that reach the top, against the
 * chosen sentences that share a stem with them.
 * Candidates live in typed arrays indexed by their position in `records` (a 10 MB input has tens
 * of thousands of sentences: an object, a vector and arrays each cost more than the text).
 */
export function selectSentences(
  records: SentenceRecord[],
  units: readonly TextUnit[],
  budget: number,
  counted: { costs: readonly number[]; overheads: UnitOverheads } = {
    costs: records.map((record) => countTokens(` ${record.text}`)),
    overheads: unitOverheads(units),
  },
  onePerUnit = false,
): SentenceRecord[] {
  const count = records.length
  const index = sentenceTerms(records.map((record) => record.stems))
  const { rowStart, terms } = index
  let maxIdf = 1e-9
  for (const value of index.idf) maxIdf = Math.max(maxIdf, value)
  const termWeight = index.idf.map((value) => (value / maxIdf) ** WEIGHTS.idfExponent)

  const baseCost = new Float64Array(count)
  const bonus = new Float64Array(count)
  /** Weight of its terms not yet covered by a chosen sentence, as of `freshAsOf` coverings. */
  const freshWeight = new Float64Array(count)
  /** Highest cosine similarity to a chosen sentence, among the first `compared` chosen. */
  const closest = new Float64Array(count)
  /** How many chosen sentences `closest` accounts for (it catches up only when it is looked at). */
  const compared = new Int32Array(count)
  /** Bumped at every push: only the newest queue entry of a candidate counts. */
  const version = new Int32Array(count)
  const taken = new Uint8Array(count)
  /** Seed 004's critical facts (commitments, bans, credentials, wins, decisions, blocking errors) go first. */
  const red = new Uint8Array(count)
  const chatter = new Uint8Array(count)
  /** Each record's index: ties go to the earliest sentence. */
  const order = new Float64Array(count)
  const unitOf = new Int32Array(count)
  for (let at = 0; at < count; at += 1) {
    const record = records[at] as SentenceRecord
    baseCost[at] = counted.costs[at] ?? 0
    bonus[at] = featureBonus(record.features, onePerUnit)
    let fresh = 0
    for (let entry = rowStart[at] as number; entry < (rowStart[at + 1] as number); entry += 1)
      fresh += termWeight[terms[entry] as number] as number
    freshWeight[at] = fresh
    red[at] = priorityOf(record.features) === 'RED' ? 1 : 0
    chatter[at] = record.features.chatter ? 1 : 0
    order[at] = record.index
    unitOf[at] = record.unitIndex
  }

  let unitCount = units.length
  for (const unit of unitOf) unitCount = Math.max(unitCount, unit + 1)
  const openings = new UnitOpenings(unitOf, unitCount, counted.overheads)
  // Fresh weights are brought up to date when read, not at every choice for every sentence
  // sharing a term (that needs an index term → sentences): the weights of a candidate's terms
  // covered since, subtracted in order of covering, give the same sum bit for bit.
  /** When each term was first held by a chosen sentence (the nth covering; 0: not yet). */
  const coveredAt = new Int32Array(index.termCount)
  let coverings = 0
  /** How many coverings each candidate's fresh weight accounts for. */
  const freshAsOf = new Int32Array(count)
  let longestRow = 0
  for (let at = 0; at < count; at += 1)
    longestRow = Math.max(longestRow, (rowStart[at + 1] as number) - (rowStart[at] as number))
  const newlyCovered = new Int32Array(longestRow)
  const chosen: number[] = []
  // Per term, the positions in `chosen` of the chosen sentences holding it, newest first, as
  // linked lists: the newest node of term t is lastNode[t], each node links to the one before.
  const lastNode = new Int32Array(index.termCount).fill(-1)
  const nodePosition: number[] = []
  const nodeBefore: number[] = []
  // Scratch for catching up: a stamp per chosen position (compared once per catch-up) and a
  // dense vector for `sentenceCosine`.
  const seen = new Int32Array(count)
  let stamp = 0
  const dense = new Float64Array(index.termCount)
  let spent = 0

  const costOf = (at: number) => openings.costOf(at, baseCost[at] as number)
  const refreshFreshWeight = (at: number) => {
    const asOf = freshAsOf[at] as number
    if (asOf === coverings) return
    let found = 0
    for (let entry = rowStart[at] as number; entry < (rowStart[at + 1] as number); entry += 1) {
      const term = terms[entry] as number
      if ((coveredAt[term] as number) > asOf) {
        newlyCovered[found] = term
        found += 1
      }
    }
    const ordered = newlyCovered.subarray(0, found)
    if (found > 1)
      ordered.sort((left, right) => (coveredAt[left] as number) - (coveredAt[right] as number))
    let fresh = freshWeight[at] as number
    for (const term of ordered) fresh -= termWeight[term] as number
    freshWeight[at] = fresh
    freshAsOf[at] = coverings
  }
  const entryOf = (at: number, cost: number): Entry => {
    refreshFreshWeight(at)
    const gain =
      (freshWeight[at] as number) +
      (bonus[at] as number) -
      WEIGHTS.redundancy * (closest[at] as number)
    // RED sentences first, then positive gains on value per token, then fill by plain gain.
    if (!(gain > 0)) return { at, tier: 0, value: gain, version: version[at] as number }
    return {
      at,
      tier: red[at] ? 2 : 1,
      value: gain / cost ** WEIGHTS.costExponent,
      version: version[at] as number,
    }
  }
  const queue = new MaxHeap<Entry>((left, right) => {
    if (left.tier !== right.tier) return left.tier > right.tier
    if (left.value !== right.value) return left.value > right.value
    return (order[left.at] as number) < (order[right.at] as number)
  })
  const push = (at: number) => {
    // Chatter is never worth a token, even when the budget has room to spare.
    if (taken[at] || chatter[at]) return
    version[at] = (version[at] as number) + 1
    queue.push(entryOf(at, costOf(at)))
  }
  const catchUp = (at: number) => {
    const from = compared[at] as number
    if (from < chosen.length) {
      stamp += 1
      for (let entry = rowStart[at] as number; entry < (rowStart[at + 1] as number); entry += 1) {
        for (
          let node = lastNode[terms[entry] as number] as number;
          node >= 0;
          node = nodeBefore[node] as number
        ) {
          const position = nodePosition[node] as number
          if (position < from) break
          if (seen[position] === stamp) continue
          seen[position] = stamp
          const similarity = sentenceCosine(index, at, chosen[position] as number, dense)
          closest[at] = Math.max(closest[at] as number, similarity)
        }
      }
    }
    compared[at] = chosen.length
  }
  const unitTaken = new Uint8Array(unitCount)
  const take = (at: number) => {
    taken[at] = 1
    unitTaken[unitOf[at] as number] = 1
    for (let entry = rowStart[at] as number; entry < (rowStart[at + 1] as number); entry += 1) {
      const term = terms[entry] as number
      if (coveredAt[term] === 0) {
        coverings += 1
        coveredAt[term] = coverings
      }
      nodePosition.push(chosen.length)
      nodeBefore.push(lastNode[term] as number)
      lastNode[term] = nodePosition.length - 1
    }
    chosen.push(at)
    openings.open(at, push)
  }

  for (let at = 0; at < count; at += 1) push(at)
  for (let entry = queue.pop(); entry; entry = queue.pop()) {
    const { at } = entry
    if (taken[at] || entry.version !== version[at]) continue
    if (onePerUnit && unitTaken[unitOf[at] as number]) continue
    // A reference lists what is worth something: it leaves room unspent rather than fill it.
    if (onePerUnit && entry.tier === 0) continue
    const cost = costOf(at)
    // Spending only grows, so it stays out until its cost falls (its unit or date opens).
    if (spent + cost > budget) continue
    catchUp(at)
    const current = entryOf(at, cost)
    if (current.tier !== entry.tier || current.value !== entry.value) {
      version[at] = (version[at] as number) + 1
      current.version = version[at] as number
      queue.push(current)
      continue
    }
    spent += cost
    take(at)
  }
  return chosen.map((at) => records[at] as SentenceRecord)
}
