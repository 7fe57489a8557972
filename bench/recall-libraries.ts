/**
 * The measured reason for the recall engine's design (docs/design/recall.md): two well-kept
 * in-process search libraries, MiniSearch 7 and Orama 3, against the segment files of
 * src/engine/adapters/search, on real text: the entries recall makes of the three real dev transcripts,
 * and 50,000 lines of LoCoMo conversation (a creature's log, a quarter of the 200,000-line target).
 * For each: build time, the size of what is kept on disk, and what a new process pays to answer
 * one query from it (read + parse + restore + search), with the heap it then holds.
 *
 * Run: `npm run bench -- recall-libraries`. Results: bench/results/recall-libraries.json.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { create, insertMultiple, load, save, search } from '@orama/orama'
import MiniSearch from 'minisearch'
import { transcriptEntries } from '../src/brain/core/recall/transcript-entries.ts'
import { bufferSource, openSegment } from '../src/engine/adapters/search/recall-segment.ts'
import { createSegmentedRecallIndex } from '../src/engine/adapters/search/segmented-recall-index.ts'
import type { RecallEntry } from '../src/engine/core/recall/recall-entry.ts'
import { recallTerms } from '../src/engine/core/recall/recall-terms.ts'

const here = dirname(fileURLToPath(import.meta.url))
const SHARED = process.env.SOMNUS_SHARED_DIR ?? join(here, '../../shared')
const DATASET = join(SHARED, 'datasets/claude-code-transcripts')
const LOCOMO = join(SHARED, 'datasets/locomo-dev')
const RESULTS = join(here, 'results', 'recall-libraries.json')
const QUERY = 'why did the sqlite migration fail on alter table'

function transcriptSet(): RecallEntry[] {
  return [
    '258c7280-ae70-4798-800f-63464d01a85d',
    '4d5611e5-241a-462a-8d15-5122611a9569',
    '8463c716-a2ea-4c14-9efa-87158ebd9f20',
  ].flatMap((id) =>
    transcriptEntries({
      path: `${id}.jsonl`,
      kind: 'transcripts',
      text: readFileSync(join(DATASET, `${id}.jsonl`), 'utf8'),
      session: id,
    }),
  )
}

function locomoSet(lines: number): RecallEntry[] {
  const turns: string[] = []
  for (const name of readdirSync(LOCOMO).filter((file) => file.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(LOCOMO, name), 'utf8')) as Record<string, unknown>
    for (const value of Object.values(data))
      if (Array.isArray(value))
        for (const turn of value as { speaker: string; text: string }[])
          turns.push(`${turn.speaker}: ${turn.text}`)
  }
  return Array.from({ length: lines }, (_, index) => ({
    id: `conversation.jsonl:${index + 1}`,
    kind: 'conversation',
    location: `conversation.jsonl:${index + 1}`,
    text: `${turns[index % turns.length]} (${index})`,
    date: null,
    sources: [],
  }))
}

const ms = (start: number) => Number((performance.now() - start).toFixed(1))
const heapMb = () => {
  globalThis.gc?.()
  return Number((process.memoryUsage().heapUsed / 1024 / 1024).toFixed(1))
}

async function measure(name: string, entries: RecallEntry[]) {
  const miniOptions = {
    fields: ['text'],
    storeFields: ['location', 'text'],
    tokenize: recallTerms,
    processTerm: (term: string) => term,
  }
  let start = performance.now()
  const mini = new MiniSearch(miniOptions)
  mini.addAll(entries)
  const miniBuild = ms(start)
  const miniJson = JSON.stringify(mini)
  const baseHeap = heapMb()
  start = performance.now()
  const miniLoaded = MiniSearch.loadJSON(miniJson, miniOptions)
  miniLoaded.search(QUERY)
  const miniQuery = ms(start)
  const miniHeap = heapMb() - baseHeap

  start = performance.now()
  const orama = create({ schema: { text: 'string', location: 'string' } as const })
  await insertMultiple(
    orama,
    entries.map((entry) => ({ id: entry.id, text: entry.text, location: entry.location })),
  )
  const oramaBuild = ms(start)
  const oramaJson = JSON.stringify(save(orama))
  const oramaBase = heapMb()
  start = performance.now()
  const oramaLoaded = create({ schema: { text: 'string', location: 'string' } as const })
  load(oramaLoaded, JSON.parse(oramaJson))
  await search(oramaLoaded, { term: QUERY, limit: 5 })
  const oramaQuery = ms(start)
  const oramaHeap = heapMb() - oramaBase

  start = performance.now()
  const segmented = createSegmentedRecallIndex()
  await segmented.put(entries)
  segmented.compact()
  const segmentBuild = ms(start)
  const bytes = segmented.segments.map((segment) => segment.bytes ?? Buffer.alloc(0))
  const segmentBase = heapMb()
  start = performance.now()
  const reopened = createSegmentedRecallIndex(
    bytes.map((buffer) => ({
      name: 'x',
      reader: openSegment(bufferSource(buffer)),
      bytes: null,
      dead: new Set<number>(),
    })),
  )
  await reopened.search({ text: QUERY, limit: 5 })
  const segmentQuery = ms(start)
  const segmentHeap = heapMb() - segmentBase
  const mb = (bytesCount: number) => Number((bytesCount / 1024 / 1024).toFixed(2))
  return {
    set: name,
    entries: entries.length,
    minisearch: {
      build_ms: miniBuild,
      stored_mb: mb(miniJson.length),
      new_process_query_ms: miniQuery,
      heap_mb: miniHeap,
    },
    orama: {
      build_ms: oramaBuild,
      stored_mb: mb(oramaJson.length),
      new_process_query_ms: oramaQuery,
      heap_mb: oramaHeap,
    },
    segments: {
      build_ms: segmentBuild,
      stored_mb: mb(bytes.reduce((sum, buffer) => sum + buffer.length, 0)),
      new_process_query_ms: segmentQuery,
      heap_mb: segmentHeap,
    },
  }
}

async function main() {
  const rows = [
    await measure('3 real transcripts', transcriptSet()),
    await measure('50,000 LoCoMo lines', locomoSet(50_000)),
  ]
  mkdirSync(dirname(RESULTS), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(rows, null, 2)}\n`)
  process.stdout.write(
    '| set | engine | build | kept on disk | load + one query | heap after |\n|---|---|---|---|---|---|\n',
  )
  for (const row of rows)
    for (const engine of ['minisearch', 'orama', 'segments'] as const) {
      const value = row[engine]
      process.stdout.write(
        `| ${row.set} (${row.entries}) | ${engine} | ${value.build_ms} ms | ${value.stored_mb} MB | ${value.new_process_query_ms} ms | ${value.heap_mb.toFixed(1)} MB |\n`,
      )
    }
}

await main()
