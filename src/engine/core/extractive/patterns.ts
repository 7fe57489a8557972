/**
 * Domain patterns (seed 002's nine categories, docs/design/origins.md) found by cue phrases: each
 * matching sentence becomes an entry with the sentence as observation, its follow-up as details,
 * what came before as context, and the domain guessed from the technology words around it.
 */
import { explodeUnits, type SentenceRecord, type TextUnit } from './sentences.ts'
import { isStopWord, shorten, stem, words } from './text.ts'
import { cosine, inverseDocumentFrequency, tfIdfVector } from './tfidf.ts'

/** Seed 002's nine kinds of learning, in the order they are tried (most specific first). */
export type PatternCategory =
  | 'architectural-decision'
  | 'workaround'
  | 'gotcha'
  | 'tool-failure'
  | 'debugging-insight'
  | 'convention'
  | 'user-preference'
  | 'brand-voice'
  | 'effective-approach'

const TECH =
  /\b(api|schema|database|db|service|layer|module|adapter|port|queue|cache|store|framework|library|endpoint|table|index|monolith|microservices?|sql|orm|protocol|interface|component)\b/i
const RESOLUTION =
  /\b(fix(?:ed)?|resolved|solved|workaround|root cause|caused by|because|the (?:issue|problem|bug) (?:was|is)|turn(?:s|ed) out|instead|switch(?:ed|ing) to)\b/i
/** Verbs too general to tag anything with. */
const GENERIC_WORDS = new Set(
  'use used using take takes took run running make made get got set add added want need try tried go went work worked fixed fix failed fail decided prefer please always never cause root'.split(
    ' ',
  ),
)
const TOOL =
  /\b(npm|pnpm|yarn|npx|git|docker|pip|bundler?|gem|cargo|tsc|webpack|vite|esbuild|jest|vitest|pytest|make|cli|command|build|install(?:ation)?|compiler|linter|biome|eslint|script|hook|ci)\b/i

/** Cue phrases per category; a category may also require a second cue (see `categoryOf`). */
export const PATTERN_CUES: Record<PatternCategory, RegExp> = {
  'architectural-decision':
    /\b(architecture|architectural|design decision|adr|trade-?offs?|decided to|we decided|chose|going with|settled on|opted for|switch(?:ed)? to)\b/i,
  workaround:
    /\b(workaround|work around|worked around|hack|bypass|had to (?:use|pass|set|add|pin)|shim|polyfill|monkey-?patch|pin(?:ned)? (?:it |the version )?to|downgrad(?:e|ed|ing))\b/i,
  gotcha:
    /\b(gotcha|undocumented|caveat|watch out|be careful|beware|quirk|pitfall|silently|surprising(?:ly)?|unexpected(?:ly)?|doesn't support|isn't supported|not supported|only works (?:with|when|if))\b/i,
  'tool-failure':
    /\b(errors?|fail(?:ed|s|ing|ure)?|crash(?:ed|es)?|exit code|timed? ?out|refused|denied|[A-Z][a-z]+Error|ENOENT|EACCES)\b/,
  'debugging-insight':
    /\b(root cause|the (?:bug|issue|problem|culprit|cause) (?:was|is)|caused by|turn(?:s|ed) out|traced (?:it )?(?:back )?to|the reason (?:was|is)|fixed (?:it )?by)\b/i,
  convention:
    /\b(conventions?|naming|style guide|in this (?:codebase|repo|repository|project)|we (?:always|never) |always use|never use|must (?:always|never)|should (?:always|never)|by convention)\b/i,
  'user-preference':
    /\b((?:user|i|we|they|he|she) (?:really )?(?:prefers?|likes?|loves?|hates?|dislikes?|wants?)|please (?:always|never|don't|use)|favou?rite|rather than)\b/i,
  'brand-voice':
    /\b(tone|brand|voice|wording|copywriting|tagline|phrasing|on-brand|audience|formal|casual|emojis?)\b/i,
  'effective-approach':
    /\b(what worked|worked (?:well|great|better|nicely)|the trick|the key (?:is|was)|best (?:way|approach)|better approach|it helps to|helped|faster (?:to|when)|more reliable)\b/i,
}

/** Technology words per domain, in tie-break order; `general` when none is found. */
export const DOMAINS: readonly [string, RegExp][] = [
  ['rails', /\b(rails|activerecord|active record|rspec|rake|erb|ruby|gemfile)\b/gi],
  ['python', /\b(python|pip|pytest|django|flask|fastapi|venv|poetry|pandas|numpy)\b/gi],
  // Not "component": Phoenix, Vue and Angular have components too.
  ['react', /\b(react|jsx|usestate|useeffect|next\.js|nextjs|\w+\.[jt]sx)\b/gi],
  ['typescript', /\b(typescript|tsc|tsconfig|type error|types?cript|\.ts|generics?|zod)\b/gi],
  ['node', /\b(node(?:\.js)?|npm|pnpm|yarn|npx|package\.json|node_modules|esm|commonjs)\b/gi],
  // Only words that are not common English: `mix` and `ash` count as Mix tasks or Ash modules.
  [
    'elixir',
    /\b(elixir|mix (?:test|compile|credo|format|deps\.\w+|ecto\.\w+|phx\.\w+|ash\.\w+|dialyzer)|mix\.exs|phoenix|liveview|live_view|ecto|ash\.\w+|credo|dialyzer|genserver|exunit|heex|\w+\.exs?)\b/gi,
  ],
  // Named databases only: a migration or a query is not PostgreSQL's unless it says so.
  ['sqlite', /\b(sqlite3?|ash_?sqlite|ecto_sqlite3|exqlite|\w+\.sqlite3?|\w+\.db)\b/gi],
  ['postgres', /\b(postgres(?:ql)?|psql|pg|pglite|pg_\w+|postgrex|ash_postgres)\b/gi],
  [
    'git',
    /\b(git|commits?|rebase|branch(?:es)?|merge conflict|cherry-pick|stash|pull request|pr)\b/gi,
  ],
  ['docker', /\b(docker|dockerfile|containers?|compose|kubernetes|k8s|image)\b/gi],
  ['bash', /\b(bash|shell|zsh|sed|awk|grep|chmod|shebang|env var)\b/gi],
  ['testing', /\b(tests?|testing|vitest|jest|mocha|specs?|fixtures?|mocks?|coverage|flaky)\b/gi],
]

/** A pattern as the extractive model makes it (same shape as the port's). */
export interface ExtractedPattern {
  domain: string
  title: string
  observation: string
  details: string
  context: string
  tags: string[]
  sources: string[]
}

/** The category of a sentence, or null. Failures must involve a tool; decisions something technical. */
export function categoryOf(sentence: string): PatternCategory | null {
  for (const category of Object.keys(PATTERN_CUES) as PatternCategory[]) {
    if (!PATTERN_CUES[category].test(sentence)) continue
    if (category === 'tool-failure' && !TOOL.test(sentence) && !/[A-Z][a-z]+Error/.test(sentence))
      continue
    if (
      category === 'architectural-decision' &&
      !/architect|design decision|adr|trade-?off/i.test(sentence) &&
      !TECH.test(sentence)
    )
      continue
    return category
  }
  return null
}

/** The domain whose technology words occur most (the sentence counts twice), else `general`. */
export function guessDomain(sentence: string, surroundings = ''): string {
  let best = 'general'
  let bestScore = 0
  for (const [domain, pattern] of DOMAINS) {
    const score =
      2 * (sentence.match(pattern) ?? []).length + (surroundings.match(pattern) ?? []).length
    if (score > bestScore) [best, bestScore] = [domain, score]
  }
  return best
}

/** Patterns found in `units`, in input order; near-duplicates are merged (sources united). */
export function extractPatterns(units: readonly TextUnit[]): ExtractedPattern[] {
  const records = explodeUnits(units)
  const idf = inverseDocumentFrequency(records.map((record) => record.stems))
  const found: { pattern: ExtractedPattern; record: SentenceRecord }[] = []
  records.forEach((record, position) => {
    const category = categoryOf(record.original)
    if (!category || record.features.chatter || record.stems.length < 2) return
    const before = contextOf(records, position)
    const after = detailsOf(records, position, category)
    const neighbours = [before, after].filter(
      (other): other is SentenceRecord => other !== undefined,
    )
    const domain = guessDomain(record.original, neighbours.map((other) => other.original).join(' '))
    const vector = tfIdfVector(record.stems, idf)
    const twin = found.find((other) => cosine(tfIdfVector(other.record.stems, idf), vector) >= 0.8)
    const sources = [...new Set([record.unitId, ...neighbours.map((other) => other.unitId)])]
    if (twin) {
      twin.pattern.sources = [...new Set([...twin.pattern.sources, ...sources])]
      return
    }
    const tags = [
      category,
      ...(domain === 'general' ? [] : [domain]),
      ...topKeywords(record.text, idf, 3),
    ]
    found.push({
      record,
      pattern: {
        domain,
        title: shorten(record.text.replace(/[.!?]+$/, ''), 72),
        observation: record.text,
        details: after?.text ?? '',
        context: before ? shorten(before.text, 160) : '',
        tags: [...new Set(tags)],
        sources,
      },
    })
  })
  return found.map(({ pattern }) => pattern)
}

/** What led up to it: the closest earlier sentence, in this unit or the one before, that is not chatter. */
function contextOf(
  records: readonly SentenceRecord[],
  position: number,
): SentenceRecord | undefined {
  const record = records[position]
  for (let index = position - 1; index >= 0; index -= 1) {
    const other = records[index]
    if (!record || !other || record.unitIndex - other.unitIndex > 1) return undefined
    if (!other.features.chatter && other.stems.length > 0) return other
  }
  return undefined
}

/**
 * What follows it: for a failure or a symptom, the first fix or explanation in the next three
 * units; otherwise the next sentence of the same unit. Chatter never counts.
 */
function detailsOf(
  records: readonly SentenceRecord[],
  position: number,
  category: PatternCategory,
): SentenceRecord | undefined {
  const record = records[position]
  if (!record) return undefined
  const resolution =
    (category === 'tool-failure' || category === 'debugging-insight') &&
    !RESOLUTION.test(record.original)
  for (let index = position + 1; index < records.length; index += 1) {
    const other = records[index]
    if (!other || other.unitIndex - record.unitIndex > (resolution ? 3 : 0)) return undefined
    if (other.features.chatter || other.stems.length === 0) continue
    if (!resolution || RESOLUTION.test(other.original)) return other
  }
  return undefined
}

/** The `count` content words of `text` with the rarest stems (ties: first written), lowercase. */
function topKeywords(text: string, idf: ReadonlyMap<string, number>, count: number): string[] {
  const seen = new Set<string>()
  const ranked: { word: string; weight: number; position: number }[] = []
  words(text).forEach((word, position) => {
    const lower = word.toLowerCase()
    if (isStopWord(word) || GENERIC_WORDS.has(lower) || lower.length < 3 || /^\d+$/.test(lower))
      return
    if (seen.has(lower)) return
    seen.add(lower)
    ranked.push({ word: lower, weight: idf.get(stem(word)) ?? 0, position })
  })
  ranked.sort((left, right) => right.weight - left.weight || left.position - right.position)
  return ranked.slice(0, count).map((entry) => entry.word)
}
