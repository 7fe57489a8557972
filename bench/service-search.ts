/**
 * Handoff search on LoCoMo: each dev conversation is imported as handoffs (`somnus handoffs
 * import --format locomo`, one tenant per conversation) and every answerable question (categories
 * 1-4; adversarial category 5 left out) is searched, top 5. Evidence recall@5: the share of a
 * question's evidence turns (`D3:7`) among the hits' units, averaged over questions; beside it the
 * share of questions with at least one evidence turn in the top 5. Target: >= 0.70 on the
 * conversations the weights were NOT tuned on.
 *
 * The split is fixed: weights (service/core/handoff-search.ts) were tuned on conversations 26 and
 * 30 only; 41, 42 and 43 are held out. The date and speaker priors (service/core/query-dates.ts,
 * query-speakers.ts) have no weight to tune: each is 1 + the IDF of its condition. The baseline in the same run is a plain BM25 over the turns
 * (MiniSearch, the same terms, no speaker or neighbour words).
 *
 * Also measured, in the same run: search latency, and what the search column (migration 006)
 * costs an insert: the same batches of bench handoffs inserted into a table with the generated
 * tsvector and GIN index and into one without (alternating, same database).
 *
 * Run: `npm run bench -- service-search [--engine pglite|postgres] [--tune]`; `--tune` prints a
 * grid of weights on the tuning conversations only. Writes bench/results/service-search.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { createMiniSearchRecallIndex } from '../src/engine/adapters/search/minisearch-recall-index.ts'
import { composeSomnusService } from '../src/service/compose-service.ts'
import type { Handoff } from '../src/service/core/handoff.ts'
import { searchUnits } from '../src/service/core/handoff-search.ts'
import { locomoHandoffs } from '../src/service/core/locomo-handoffs.ts'

const here = dirname(fileURLToPath(import.meta.url))
const SHARED = process.env.SOMNUS_SHARED_DIR ?? join(here, '../../shared')
const LOCOMO = join(SHARED, 'datasets/locomo-dev')
const POSTGRES_URL =
  process.env.SOMNUS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const TUNED = ['26', '30']
const HELD_OUT = ['41', '42', '43']
const TOP = 5
const TARGET = 0.7

interface Question {
  conversation: string
  category: number
  question: string
  evidence: string[]
}

function questionsOf(conversation: string, data: Record<string, unknown>): Question[] {
  const turnIds = new Set(
    Object.entries(data)
      .filter(([key]) => /^session_\d+$/.test(key))
      .flatMap(([, turns]) => (turns as { dia_id: string }[]).map((turn) => turn.dia_id)),
  )
  return (data.qa as Record<string, unknown>[]).flatMap((qa) => {
    const category = Number(qa.category)
    if (category < 1 || category > 4) return []
    // Evidence is sometimes malformed ("D8:6; D9:17"): every well-formed id that exists.
    const cited = (qa.evidence as unknown[]).flatMap(
      (item) => String(item).match(/D\d+:\d+/g) ?? [],
    )
    const evidence = [...new Set(cited)].filter((id) => turnIds.has(id))
    if (evidence.length === 0) return []
    return [{ conversation, category, question: String(qa.question), evidence }]
  })
}

/** recall@5 and hit@5 of `units` (the top units, best first) against the evidence. */
function score(question: Question, units: string[]) {
  const top = new Set(units.slice(0, TOP))
  const found = question.evidence.filter((id) => top.has(id)).length
  return { recall: found / question.evidence.length, hit: found > 0 ? 1 : 0 }
}

interface Tally {
  questions: number
  recall: number
  hit: number
}

function tally(rows: { recall: number; hit: number }[]): Tally {
  const sum = (pick: (row: { recall: number; hit: number }) => number) =>
    rows.reduce((total, row) => total + pick(row), 0)
  return {
    questions: rows.length,
    recall: Number((sum((row) => row.recall) / Math.max(1, rows.length)).toFixed(3)),
    hit: Number((sum((row) => row.hit) / Math.max(1, rows.length)).toFixed(3)),
  }
}

const { values } = parseArgs({
  options: { engine: { type: 'string', default: 'pglite' }, tune: { type: 'boolean' } },
})

const conversations = [...TUNED, ...HELD_OUT].map((name) => {
  const data = JSON.parse(readFileSync(join(LOCOMO, `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >
  return { name, data, inputs: locomoHandoffs(data, name), questions: questionsOf(name, data) }
})

/** The baseline: a plain BM25 over the turns as they are (no speaker, no neighbours). */
async function plainBm25(handoffs: Handoff[], question: string): Promise<string[]> {
  const index = createMiniSearchRecallIndex()
  await index.put(
    handoffs.flatMap((handoff) =>
      (handoff.turns ?? []).map((turn) => ({
        id: turn.id,
        kind: 'full',
        location: turn.id,
        text: turn.text,
        date: null,
        sources: [],
      })),
    ),
  )
  return (await index.search({ text: question, limit: TOP })).map((hit) => hit.id)
}

/** The handoffs an import stores, without a database (for the in-memory rankings). */
function asHandoffs(name: string, inputs: ReturnType<typeof locomoHandoffs>): Handoff[] {
  return inputs.map((input) => ({
    handoff_id: input.handoff_id ?? name,
    tenant_id: name,
    session_id: input.session_id ?? null,
    with_whom: input.with_whom ?? null,
    experienced: null,
    noticed: null,
    learned: null,
    story: null,
    becoming: null,
    remember: null,
    significance: 0.5,
    tags: input.tags ?? [],
    created_at: input.created_at ?? '',
    sources: input.sources ?? [],
    turns: input.turns ?? null,
    compression_level: 'full',
    summary: null,
    summary_sources: [],
    quick_ref: null,
    quick_ref_sources: [],
    integrated_into: null,
    consolidated_at: null,
    parent_handoff_id: null,
    full_tokens: 0,
    summary_tokens: null,
    quick_ref_tokens: null,
  }))
}

if (values.tune) {
  // The grid, on the tuning conversations only: one index per conversation and setting.
  const tuning = conversations.filter((conversation) => TUNED.includes(conversation.name))
  for (const neighbours of [0, 1, 2, 3]) {
    for (const context of [0.4, 0.6, 0.8, 1]) {
      const rows = []
      for (const conversation of tuning) {
        const handoffs = asHandoffs(conversation.name, conversation.inputs)
        const index = createMiniSearchRecallIndex({ contextBoost: context })
        const units = searchUnits(handoffs, 'full', { neighbours, context })
        await index.put(units.map((unit) => unit.entry))
        for (const question of conversation.questions) {
          const hits = await index.search({ text: question.question, limit: TOP })
          rows.push(
            score(
              question,
              hits.map((hit) => hit.id.slice(hit.id.indexOf('\n') + 1)),
            ),
          )
        }
      }
      const result = tally(rows)
      process.stdout.write(
        `neighbours ${neighbours}, context ${context}: recall@5 ${result.recall}, hit@5 ${result.hit}\n`,
      )
    }
  }
  process.exit(0)
}

async function postgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `somnus_bench_search_${process.pid}`
  return {
    url: `${POSTGRES_URL}?schema=${schema}`,
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    },
  }
}

const engine = values.engine === 'postgres' ? 'postgres' : 'pglite'
const target = engine === 'postgres' ? await postgresSchema() : null
const service = await composeSomnusService({ database: target?.url ?? ':memory:' })
const latencies: number[] = []
const perConversation: Record<string, { search: Tally; baseline: Tally }> = {}
const all = {
  tuned: { search: [], baseline: [] },
  heldOut: { search: [], baseline: [] },
} as Record<
  'tuned' | 'heldOut',
  { search: { recall: number; hit: number }[]; baseline: { recall: number; hit: number }[] }
>
try {
  for (const conversation of conversations) {
    const tenant = `locomo-${conversation.name}`
    await service.createTenant({ tenantId: tenant })
    await service.importHandoffs(tenant, conversation.inputs)
    const handoffs = asHandoffs(conversation.name, conversation.inputs)
    const searchRows = []
    const baselineRows = []
    for (const question of conversation.questions) {
      const started = performance.now()
      const hits = await service.searchHandoffs(tenant, { text: question.question, limit: TOP })
      latencies.push(performance.now() - started)
      searchRows.push(
        score(
          question,
          hits.map((hit) => hit.unit),
        ),
      )
      baselineRows.push(score(question, await plainBm25(handoffs, question.question)))
    }
    const set = TUNED.includes(conversation.name) ? 'tuned' : 'heldOut'
    all[set].search.push(...searchRows)
    all[set].baseline.push(...baselineRows)
    perConversation[conversation.name] = {
      search: tally(searchRows),
      baseline: tally(baselineRows),
    }
  }
} finally {
  await service.close()
  await target?.drop()
}

latencies.sort((a, b) => a - b)
const at = (share: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0
const summary = {
  engine,
  tuned_on: TUNED,
  held_out: HELD_OUT,
  tuned: { search: tally(all.tuned.search), baseline: tally(all.tuned.baseline) },
  held_out_result: { search: tally(all.heldOut.search), baseline: tally(all.heldOut.baseline) },
  per_conversation: perConversation,
  search_ms: { p50: Number(at(0.5).toFixed(1)), p99: Number(at(0.99).toFixed(1)) },
}
process.stdout.write(
  `| set | conversations | questions | search recall@5 | search hit@5 | plain BM25 recall@5 | plain BM25 hit@5 |\n|---|---|---|---|---|---|---|\n`,
)
for (const [label, names, result] of [
  ['tuned on', TUNED, summary.tuned],
  ['held out', HELD_OUT, summary.held_out_result],
] as const) {
  process.stdout.write(
    `| ${label} | ${names.join(', ')} | ${result.search.questions} | **${result.search.recall}** | ${result.search.hit} | ${result.baseline.recall} | ${result.baseline.hit} |\n`,
  )
}
process.stdout.write(
  `\n${engine}: search p50 ${summary.search_ms.p50} ms, p99 ${summary.search_ms.p99} ms over ${latencies.length} searches; held-out target ${TARGET}: ${summary.held_out_result.search.recall >= TARGET ? 'met' : 'NOT met'}\n`,
)
mkdirSync(join(here, 'results'), { recursive: true })
writeFileSync(
  join(here, 'results', 'service-search.json'),
  `${JSON.stringify({ at: new Date().toISOString(), ...summary }, null, 2)}\n`,
)
