/**
 * Identity consolidation's grouping by meaning, measured (issue 22 item 6) on the hand-labelled
 * "becoming" statements of test/fixtures/becoming-statements.json: 24 themes, each one idea said
 * in different words, and distractors that share words with a theme or with nothing.
 *
 * All statements of a split (tune, holdout, both) are grouped at once, as one tenant's batch
 * would be, by the extractive model's `groupSimilar` at a range of thresholds. Reported per
 * threshold: pairwise precision (of the pairs put in one group, the share that are one theme) and
 * recall (of the pairs of one theme, the share put in one group), the themes whose largest group
 * holds at least 80 % of them, and wrong merges (groups mixing themes or holding a distractor).
 * A threshold is chosen on the tune split; the holdout split tells whether it holds on statements
 * it was not chosen on.
 *
 * Then, at the default threshold with the word vectors, the groups that become principles: those
 * of at least k statements, for k from 2 to the seed's 10 (the service's `identity_theme_min_size`
 * is chosen here, on the tune split): their precision and recall, how many are wrong, and how many
 * themes got more than one principle.
 *
 * Run: `npx tsx bench/identity-grouping.ts` (or `npm run bench -- identity-grouping`).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { lazyWordVectors } from '../src/engine/adapters/node/word-vectors-file.ts'
import { groupSimilar } from '../src/engine/core/extractive/grouping.ts'
import { decodeWordVectors } from '../src/engine/core/extractive/word-vectors.ts'
import { DEFAULT_SERVICE_CONFIG } from '../src/service/core/service-config.ts'
import {
  labelledTheme,
  PARAPHRASE_SET_FILES,
  paraphraseSet,
} from '../test/support/becoming-paraphrases.ts'

const here = dirname(fileURLToPath(import.meta.url))

/** The labelled file's shape. */
interface Labelled {
  themes: Array<{ theme: string; split: string; statements: string[] }>
  distractors: Array<{ split: string; text: string }>
}

/** A statement with its theme (null for a distractor). */
export interface LabelledStatement {
  id: string
  text: string
  theme: string | null
}

/** A split: tune and holdout of the first set, `varied` the second set (other domains), `all` the first set whole. */
export type Split = 'tune' | 'holdout' | 'varied' | 'all'

/** The labelled statements of `split`. */
export function labelledStatements(split: Split): LabelledStatement[] {
  const name = split === 'varied' ? 'becoming-statements-varied.json' : 'becoming-statements.json'
  const file = join(here, '..', 'test', 'fixtures', name)
  const labelled = JSON.parse(readFileSync(file, 'utf8')) as Labelled
  const statements: LabelledStatement[] = []
  for (const theme of labelled.themes) {
    if (split !== 'all' && theme.split !== split) continue
    theme.statements.forEach((text, index) => {
      statements.push({ id: `${theme.theme}#${index}`, text, theme: theme.theme })
    })
  }
  labelled.distractors.forEach((distractor, index) => {
    if (split === 'all' || distractor.split === split)
      statements.push({ id: `distractor#${index}`, text: distractor.text, theme: null })
  })
  return statements
}

/** What a grouping got right and wrong. */
export interface GroupingScore {
  precision: number
  recall: number
  /** Themes whose largest group holds at least 80 % of their statements. */
  themesFound: number
  themes: number
  /** Groups with statements of two themes, or a distractor. */
  wrongGroups: number
  groups: number
}

/** Pairwise precision and recall of `groups` (member ids) against the labels. */
export function scoreGrouping(
  statements: readonly LabelledStatement[],
  groups: readonly { members: readonly string[] }[],
): GroupingScore {
  const themeOf = new Map(statements.map((statement) => [statement.id, statement.theme]))
  let truePairs = 0
  let predictedPairs = 0
  let correctPairs = 0
  const sizes = new Map<string, number>()
  for (const statement of statements)
    if (statement.theme !== null) sizes.set(statement.theme, (sizes.get(statement.theme) ?? 0) + 1)
  for (const size of sizes.values()) truePairs += (size * (size - 1)) / 2
  const largest = new Map<string, number>()
  let wrongGroups = 0
  for (const group of groups) {
    const counts = new Map<string | null, number>()
    for (const member of group.members) {
      const theme = themeOf.get(member) ?? null
      counts.set(theme, (counts.get(theme) ?? 0) + 1)
    }
    const size = group.members.length
    predictedPairs += (size * (size - 1)) / 2
    for (const [theme, count] of counts) {
      if (theme === null) continue
      correctPairs += (count * (count - 1)) / 2
      largest.set(theme, Math.max(largest.get(theme) ?? 0, count))
    }
    if (counts.size > 1 || counts.has(null)) wrongGroups += 1
  }
  let themesFound = 0
  for (const [theme, size] of sizes) if ((largest.get(theme) ?? 0) >= 0.8 * size) themesFound += 1
  return {
    precision: predictedPairs === 0 ? 1 : correctPairs / predictedPairs,
    recall: truePairs === 0 ? 1 : correctPairs / truePairs,
    themesFound,
    themes: sizes.size,
    wrongGroups,
    groups: groups.length,
  }
}

/** Themes whose statements are the largest part of more than one of `groups`. */
export function splitThemes(
  statements: readonly LabelledStatement[],
  groups: readonly { members: readonly string[] }[],
): number {
  const themeOf = new Map(statements.map((statement) => [statement.id, statement.theme]))
  const principles = new Map<string, number>()
  for (const group of groups) {
    const counts = new Map<string, number>()
    for (const member of group.members) {
      const theme = themeOf.get(member)
      if (theme) counts.set(theme, (counts.get(theme) ?? 0) + 1)
    }
    const [major] = [...counts].sort((left, right) => right[1] - left[1])[0] ?? []
    if (major !== undefined) principles.set(major, (principles.get(major) ?? 0) + 1)
  }
  return [...principles.values()].filter((count) => count > 1).length
}

/** F-measure weighing precision twice as much as recall (a wrong principle costs more). */
function fHalf(score: GroupingScore): number {
  const { precision, recall } = score
  return precision + recall === 0 ? 0 : (1.25 * precision * recall) / (0.25 * precision + recall)
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url)
if (isMain) {
  const chosen = DEFAULT_SERVICE_CONFIG.identity_similarity_threshold
  // Load cost, as the service pays it on its first identity consolidation: read, decode, then a
  // first grouping (which also computes the reference statements' means) against stems alone.
  const before = process.memoryUsage()
  const readStart = performance.now()
  const wordVectors = await lazyWordVectors()()
  const readMs = performance.now() - readStart
  const decodeStart = performance.now()
  decodeWordVectors(wordVectors)
  const decodeMs = performance.now() - decodeStart
  const after = process.memoryUsage()
  const allUnits = labelledStatements('all').map(({ id, text }) => ({ id, text }))
  const timed = (run: () => unknown) => {
    const start = performance.now()
    run()
    return performance.now() - start
  }
  const firstMeaningMs = timed(() => groupSimilar(allUnits, chosen, wordVectors))
  const stemsMs = timed(() => groupSimilar(allUnits, chosen))
  const meaningMs = timed(() => groupSimilar(allUnits, chosen, wordVectors))
  const rows: string[] = []
  for (const split of ['tune', 'holdout', 'varied', 'all'] as const) {
    const statements = labelledStatements(split)
    const units = statements.map(({ id, text }) => ({ id, text }))
    const thresholds = [...new Set([0.1, 0.15, 0.2, 0.25, 0.3, chosen])].sort()
    for (const [scoring, meaning] of [
      ['stems', undefined],
      ['stems + word vectors', wordVectors],
    ] as const) {
      for (const threshold of thresholds) {
        const score = scoreGrouping(statements, groupSimilar(units, threshold, meaning))
        rows.push(
          `| ${split} | ${scoring} | ${threshold}${threshold === chosen ? ' (default)' : ''} | ${(100 * score.precision).toFixed(1)} % | ${(100 * score.recall).toFixed(1)} % | ${fHalf(score).toFixed(2)} | ${score.themesFound}/${score.themes} | ${score.wrongGroups}/${score.groups} |`,
        )
      }
    }
  }
  const minimum = DEFAULT_SERVICE_CONFIG.identity_theme_min_size
  const principleRows: string[] = []
  for (const split of ['tune', 'holdout', 'varied'] as const) {
    const statements = labelledStatements(split)
    const units = statements.map(({ id, text }) => ({ id, text }))
    const groups = groupSimilar(units, chosen, wordVectors)
    for (const size of [2, 3, 4, 5, 6, 8, 10]) {
      const formed = groups.filter((group) => group.members.length >= size)
      const score = scoreGrouping(statements, formed)
      principleRows.push(
        `| ${split} | ${size}${size === minimum ? ' (default)' : ''} | ${(100 * score.precision).toFixed(1)} % | ${(100 * score.recall).toFixed(1)} % | ${fHalf(score).toFixed(2)} | ${score.groups} | ${score.wrongGroups} | ${splitThemes(statements, formed)} |`,
      )
    }
  }
  // The case, the labelled set's twelve "tests before shipping" statements among unrelated
  // ones; then each paraphrase set of test/fixtures, written after the method was chosen.
  const labelledCase = {
    theme: 'tests before shipping (labelled)',
    paraphrases: labelledTheme('tests before shipping'),
    unrelated: paraphraseSet(PARAPHRASE_SET_FILES[0]).unrelated,
  }
  const caseRows = [labelledCase, ...PARAPHRASE_SET_FILES.map(paraphraseSet)].map(
    ({ theme, paraphrases, unrelated }) => {
      const units = [
        ...paraphrases.map((text, index) => ({ id: `t${index}`, text })),
        ...unrelated.map((text, index) => ({ id: `u${index}`, text })),
      ]
      const groups = groupSimilar(units, chosen, wordVectors)
      const formed = groups.filter((group) => group.members.length >= minimum)
      const mixed = formed.filter((group) => group.members.some((member) => member.startsWith('u')))
      return `| ${theme} | ${groups.map((group) => group.members.length).join(', ')} | ${formed.length} | ${formed.map((group) => group.members.length).join(', ') || '-'} | ${mixed.length} |`
    },
  )
  const megabytes = (bytes: number) => (bytes / 1e6).toFixed(1)
  process.stdout.write(
    `Word vectors: ${megabytes(wordVectors.bytes.byteLength)} MB file read in ${readMs.toFixed(0)} ms, decoded in ${decodeMs.toFixed(0)} ms; RSS +${megabytes(after.rss - before.rss)} MB (heap +${megabytes(after.heapUsed - before.heapUsed)} MB, array buffers +${megabytes(after.arrayBuffers - before.arrayBuffers)} MB).\n` +
      `Grouping the ${allUnits.length} statements of \`all\`: stems ${stemsMs.toFixed(0)} ms, with vectors ${meaningMs.toFixed(0)} ms (${(meaningMs / stemsMs).toFixed(2)}x), the first time ${firstMeaningMs.toFixed(0)} ms.\n\n`,
  )
  process.stdout.write(
    `| split | scoring | threshold | precision | recall | F0.5 | themes found | wrong groups |\n|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  )
  process.stdout.write(
    `\nPrinciples at threshold ${chosen} with word vectors: groups of at least k statements.\n\n| split | k | precision | recall | F0.5 | principles | wrong | themes split |\n|---|---|---|---|---|---|---|---|\n${principleRows.join('\n')}\n`,
  )
  process.stdout.write(
    `\nTwelve paraphrases of one theme with statements on other things, as one batch, at the defaults (the labelled twelve, then each set of test/fixtures/becoming-paraphrases-*.json in the order written):\n\n| paraphrases | group sizes | principles | their sizes | with an unrelated one |\n|---|---|---|---|---|\n${caseRows.join('\n')}\n`,
  )
}
