/**
 * Ways to raise the recall of identity consolidation's grouping (issue 22 item 6), measured
 * against the method the service ships (average link at 0.2 over words + word vectors,
 * bench/identity-grouping.ts). Each variant is judged by the principles it forms (groups of at
 * least `identity_theme_min_size`) on the held-out and varied splits, and by three sets of twelve
 * paraphrases of one theme among unrelated statements, as one tenant's batch: the issue's, twelve
 * written later, and a third written after the method was frozen
 * (test/fixtures/becoming-paraphrases-ask-before-deleting.json), and a fourth after that
 * (becoming-paraphrases-docs-with-code.json).
 *
 * Variants (all start from the shipped pairwise similarity S, the words/vectors blend):
 * - second-order: S blended half and half with the cosine of the statements' nearest-neighbour
 *   profiles (each row of S kept at its 10 largest entries): statements that share neighbours
 *   count as closer; clustered at 0.2.
 * - second-order merge: the shipped groups, then groups of 3 or more merged by average link over
 *   that blended similarity at 0.15 (singletons and pairs stay out of the second pass).
 * - local scaling: S[i][j] / sqrt(σi σj), σ a statement's 5th-largest similarity (capped at 1):
 *   a statement similar to little counts its nearest as close; clustered at 0.8.
 * Input order: the service reads a tenant's statements in handoff-id order, and ids are random,
 * so each paraphrase set is also grouped in 100 shuffled orders (a fixed seed): how often it makes
 * exactly one principle with no unrelated statement, a principle holding one, or none. Local
 * scaling caps scaled similarities at 1, and average link breaks ties by input order.
 * Speed: 5,000 statements as the service groups them (batches of `identity_batch_size`, 500),
 * each variant against the shipped method in this process.
 *
 * Run: `npx tsx bench/identity-grouping-variants.ts`.
 */
import { lazyWordVectors } from '../src/engine/adapters/node/word-vectors-file.ts'
import {
  blend,
  clusterBySimilarity,
  lexicalSimilarity,
  MEANING_WEIGHT,
  meaningSimilarity,
  type SimilarityGroup,
} from '../src/engine/core/extractive/grouping.ts'
import type { TextUnit } from '../src/engine/core/extractive/sentences.ts'
import { decodeWordVectors, type WordVectors } from '../src/engine/core/extractive/word-vectors.ts'
import { DEFAULT_SERVICE_CONFIG } from '../src/service/core/service-config.ts'
import { labelledTheme, paraphraseSet } from '../test/support/becoming-paraphrases.ts'
import { labelledStatements, scoreGrouping, splitThemes } from './identity-grouping.ts'

const THRESHOLD = DEFAULT_SERVICE_CONFIG.identity_similarity_threshold
const MINIMUM = DEFAULT_SERVICE_CONFIG.identity_theme_min_size

/** The shipped pairwise similarity: groupSimilar's blend of words and meaning. */
function shippedSimilarity(units: readonly TextUnit[], vectors: WordVectors): number[][] {
  return blend(lexicalSimilarity(units), meaningSimilarity(units, vectors), MEANING_WEIGHT)
}

/** Cosine of the rows of `similarity` kept at their `kept` largest entries (self included). */
function neighbourProfiles(similarity: number[][], kept: number): number[][] {
  const size = similarity.length
  const rows = similarity.map((row, self) => {
    const entries = row.map((value, index) => [index, index === self ? 1 : value] as const)
    entries.sort((left, right) => right[1] - left[1])
    const top = entries.slice(0, kept + 1).filter(([, value]) => value > 0)
    const length = Math.hypot(...top.map(([, value]) => value)) || 1
    return top.map(([index, value]) => [index, value / length] as const)
  })
  // Inverted lists: pairs meet only through a shared neighbour, so this is n·k², not n³.
  const byNeighbour: Array<Array<readonly [number, number]>> = Array.from(
    { length: size },
    () => [],
  )
  rows.forEach((row, index) => {
    for (const [neighbour, value] of row) byNeighbour[neighbour]?.push([index, value])
  })
  const profile = Array.from({ length: size }, () => new Array<number>(size).fill(0))
  for (const list of byNeighbour)
    for (const [left, leftValue] of list)
      for (const [right, rightValue] of list) {
        const row = profile[left]
        if (row) row[right] = (row[right] ?? 0) + leftValue * rightValue
      }
  return profile
}

/** Average link over groups (not singletons): merges while the mean similarity clears `threshold`. */
function mergeGroups(similarity: number[][], groups: number[][], threshold: number): number[][] {
  const clusters: (number[] | null)[] = groups.map((group) => [...group])
  const mean = (left: number[], right: number[]) => {
    let sum = 0
    for (const one of left) for (const other of right) sum += similarity[one]?.[other] ?? 0
    return sum / (left.length * right.length)
  }
  for (;;) {
    let best: { left: number; right: number; value: number } | undefined
    for (let left = 0; left < clusters.length; left += 1)
      for (let right = left + 1; right < clusters.length; right += 1) {
        const leftMembers = clusters[left]
        const rightMembers = clusters[right]
        if (!leftMembers || !rightMembers) continue
        const value = mean(leftMembers, rightMembers)
        if (value >= threshold && (!best || value > best.value)) best = { left, right, value }
      }
    if (!best) break
    clusters[best.left] = [...(clusters[best.left] ?? []), ...(clusters[best.right] ?? [])]
    clusters[best.right] = null
  }
  return clusters.filter((cluster): cluster is number[] => cluster !== null)
}

type Variant = (units: readonly TextUnit[], vectors: WordVectors) => SimilarityGroup[]

const indexesOf = (units: readonly TextUnit[], groups: SimilarityGroup[]) => {
  const position = new Map(units.map((unit, index) => [unit.id, index]))
  return groups.map((group) => group.members.map((member) => position.get(member) ?? 0))
}

const VARIANTS: Array<[string, Variant]> = [
  [
    'shipped (average link 0.2)',
    (units, vectors) => clusterBySimilarity(units, shippedSimilarity(units, vectors), THRESHOLD),
  ],
  [
    'second-order (k 10, half) 0.2',
    (units, vectors) => {
      const similarity = shippedSimilarity(units, vectors)
      const mixed = blend(similarity, neighbourProfiles(similarity, 10), 0.5)
      return clusterBySimilarity(units, mixed, THRESHOLD)
    },
  ],
  [
    'second-order merge of groups ≥ 3 at 0.15',
    (units, vectors) => {
      const similarity = shippedSimilarity(units, vectors)
      const first = clusterBySimilarity(units, similarity, THRESHOLD)
      const mixed = blend(similarity, neighbourProfiles(similarity, 10), 0.5)
      const large = indexesOf(units, first).filter((group) => group.length >= 3)
      const small = indexesOf(units, first).filter((group) => group.length < 3)
      return [...mergeGroups(mixed, large, 0.15), ...small].map((members) => ({
        label: '',
        members: members.map((index) => units[index]?.id ?? ''),
      }))
    },
  ],
  [
    'local scaling (k 5) 0.8',
    (units, vectors) => {
      const similarity = shippedSimilarity(units, vectors)
      const scale = similarity.map((row, self) => {
        const others = row.filter((_, index) => index !== self).sort((left, right) => right - left)
        return Math.max(0.02, others[Math.min(5, others.length - 1)] ?? 0.02)
      })
      const scaled = similarity.map((row, left) =>
        row.map((value, right) =>
          left === right
            ? 1
            : Math.min(1, value / Math.sqrt((scale[left] ?? 1) * (scale[right] ?? 1))),
        ),
      )
      return clusterBySimilarity(units, scaled, 0.8)
    },
  ],
]

/** The sets these variants were judged on (the later ones, written after, are in identity-grouping.ts). */
const second = paraphraseSet('becoming-paraphrases-tests-before-shipping.json')
const third = paraphraseSet('becoming-paraphrases-ask-before-deleting.json')
const fourth = paraphraseSet('becoming-paraphrases-docs-with-code.json')
const PARAPHRASE_SETS: Array<[string, string[], string[]]> = [
  ['issue (labelled)', labelledTheme('tests before shipping'), second.unrelated],
  ['written after', second.paraphrases, second.unrelated],
  ['third (ask before deleting)', third.paraphrases, third.unrelated],
  ['fourth (docs with the code)', fourth.paraphrases, fourth.unrelated],
]

const vectors = decodeWordVectors(await lazyWordVectors()())
const splitRows: string[] = []
const setRows: string[] = []
for (const [name, variant] of VARIANTS) {
  const cells: string[] = []
  for (const split of ['tune', 'holdout', 'varied'] as const) {
    const statements = labelledStatements(split)
    const units = statements.map(({ id, text }) => ({ id, text }))
    const formed = variant(units, vectors).filter((group) => group.members.length >= MINIMUM)
    const score = scoreGrouping(statements, formed)
    cells.push(
      `${(100 * score.precision).toFixed(1)} / ${(100 * score.recall).toFixed(1)} %, ${score.groups} (${score.wrongGroups} wrong${splitThemes(statements, formed) > 0 ? `, ${splitThemes(statements, formed)} split` : ''})`,
    )
  }
  splitRows.push(`| ${name} | ${cells.join(' | ')} |`)
  const setCells = PARAPHRASE_SETS.map(([, twelve, unrelated]) => {
    const units = [
      ...twelve.map((text, index) => ({ id: `t${index}`, text })),
      ...unrelated.map((text, index) => ({ id: `u${index}`, text })),
    ]
    const groups = variant(units, vectors)
    const sizes = groups.map((group) => group.members.length).sort((left, right) => right - left)
    const formed = groups.filter((group) => group.members.length >= MINIMUM)
    const mixed = formed.filter((group) => group.members.some((member) => member.startsWith('u')))
    return `${sizes.join(', ') || '-'} → ${formed.length}${mixed.length > 0 ? ` (${mixed.length} mixed)` : ''}`
  })
  setRows.push(`| ${name} | ${setCells.join(' | ')} |`)
}

// The paraphrase sets in shuffled orders: a park-miller generator, so every run shuffles alike.
const ORDERS = 100
const orderRows = VARIANTS.map(([name, variant]) => {
  const cells = PARAPHRASE_SETS.map(([, twelve, unrelated]) => {
    const units = [
      ...twelve.map((text, index) => ({ id: `t${index}`, text })),
      ...unrelated.map((text, index) => ({ id: `u${index}`, text })),
    ]
    let state = 7
    const random = () => {
      state = (state * 16807) % 2147483647
      return state / 2147483647
    }
    const tally = { clean: 0, mixed: 0, none: 0 }
    for (let order = 0; order < ORDERS; order += 1) {
      const shuffled = units
        .map((unit) => [random(), unit] as const)
        .sort((left, right) => left[0] - right[0])
        .map(([, unit]) => unit)
      const formed = variant(shuffled, vectors).filter((group) => group.members.length >= MINIMUM)
      const mixed = formed.some((group) => group.members.some((member) => member.startsWith('u')))
      if (mixed) tally.mixed += 1
      else if (formed.length === 1) tally.clean += 1
      else if (formed.length === 0) tally.none += 1
    }
    return `${tally.clean} / ${tally.mixed} / ${tally.none}`
  })
  return `| ${name} | ${cells.join(' | ')} |`
})

// 5,000 statements as the service groups them: batches of identity_batch_size.
const base = labelledStatements('all').map((statement) => statement.text)
const endings = ['', ' today', ' again', ' lately', ' at work', ' every day', ' for real']
const many = Array.from({ length: 5000 }, (_, index) => ({
  id: `s${index}`,
  text: `${base[index % base.length]}${endings[Math.floor(index / base.length) % endings.length]}`,
}))
const batch = DEFAULT_SERVICE_CONFIG.identity_batch_size
const timeOf = (variant: Variant) => {
  const start = performance.now()
  for (let at = 0; at < many.length; at += batch) variant(many.slice(at, at + batch), vectors)
  return performance.now() - start
}
const shippedMs = timeOf(VARIANTS[0]?.[1] ?? (() => []))
const speedRows = VARIANTS.map(([name, variant], index) => {
  const ms = index === 0 ? shippedMs : timeOf(variant)
  return `| ${name} | ${(ms / 1000).toFixed(1)} s | ${(ms / shippedMs).toFixed(2)}x |`
})

process.stdout.write(
  `Principles (groups of at least ${MINIMUM}): pairwise precision / recall, principles (wrong).\n\n| variant | tune | holdout | varied |\n|---|---|---|---|\n${splitRows.join('\n')}\n\n` +
    `Twelve paraphrases of one theme with eight unrelated statements: group sizes → principles.\n\n| variant | ${PARAPHRASE_SETS.map(([name]) => name).join(' | ')} |\n|---|---|---|---|---|\n${setRows.join('\n')}\n\n` +
    `The same sets in ${ORDERS} shuffled orders: one clean principle / a principle with an unrelated statement / none.\n\n| variant | ${PARAPHRASE_SETS.map(([name]) => name).join(' | ')} |\n|---|---|---|---|---|\n${orderRows.join('\n')}\n\n` +
    `Grouping ${many.length} statements in batches of ${batch}:\n\n| variant | time | vs shipped |\n|---|---|---|\n${speedRows.join('\n')}\n`,
)
