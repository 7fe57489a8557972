/**
 * How fast sleep reads sessions into digests (issue 8): `readSessionDigest` against, on the same
 * bytes in the same run, `transcript stats`' analysis (`analyzeSession`, the fast counting path)
 * and a JSON.parse of every line (how sleep run read transcripts before).
 *
 * 1. Throughput (MB/s) on the three real dev sessions with their sub-agent and compaction files
 *    (best of 5 passes each).
 * 2. 1,000 distinct sessions digested one after the other, each a prefix (5-40% of the lines) of
 *    a real transcript with every uuid and the session id rewritten, so no two are the same.
 * 3. Cost per MB at 100 KB, 1 MB and 10 MB: real transcripts concatenated (uuids rewritten per
 *    copy) and cut to size, each against transcript stats on the same file (the ratio is what
 *    holds on a busy machine); flat means the digest grows with the work, not its square.
 *
 * Run: `npx tsx bench/sleep-read.ts` (or `npm run bench -- sleep-read`). Prints markdown tables.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSessionDigest } from '../src/engine/adapters/fs/session-digest-files.ts'
import { analyzeSession } from '../src/engine/adapters/fs/transcript-files.ts'
import { HAS_SHARED, SHARED_SKIP_REASON, TRANSCRIPTS_DIR } from '../test/support/shared-data.ts'

const DEV_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** `text` with every uuid's first 8 hex digits changed for copy `copy` (stable within a copy). */
function rewriteIds(text: string, copy: number): string {
  return text.replace(UUID, (uuid) => {
    const head = (Number.parseInt(uuid.slice(0, 8), 16) ^ Math.imul(copy + 1, 2654435761)) >>> 0
    return `${head.toString(16).padStart(8, '0')}${uuid.slice(8)}`
  })
}

/** Every file of a session: [path, bytes]. */
function sessionFiles(folder: string, session: string): string[] {
  const sub = join(folder, session, 'subagents')
  let names: string[] = []
  try {
    names = readdirSync(sub).map((name) => join(sub, name))
  } catch {}
  return [join(folder, `${session}.jsonl`), ...names]
}

function bytesOf(paths: string[]): number {
  return paths.reduce((sum, path) => sum + statSync(path).size, 0)
}

async function jsonParseEveryLine(paths: string[]): Promise<number> {
  let records = 0
  for (const path of paths)
    for (const line of readFileSync(path, 'utf8').split('\n'))
      if (line.trim() !== '') {
        JSON.parse(line)
        records++
      }
  return records
}

async function best(passes: number, run: () => Promise<unknown>): Promise<number> {
  let fastest = Number.POSITIVE_INFINITY
  for (let pass = 0; pass < passes; pass++) {
    const started = performance.now()
    await run()
    fastest = Math.min(fastest, performance.now() - started)
  }
  return fastest / 1000
}

const mb = (bytes: number) => bytes / (1024 * 1024)
const round = (value: number, digits = 1) => Number(value.toFixed(digits))

async function throughput(): Promise<void> {
  const paths = DEV_SESSIONS.flatMap((session) => sessionFiles(TRANSCRIPTS_DIR, session))
  const size = mb(bytesOf(paths))
  const digest = await best(5, async () => {
    for (const session of DEV_SESSIONS)
      await readSessionDigest(join(TRANSCRIPTS_DIR, `${session}.jsonl`))
  })
  const stats = await best(5, async () => {
    for (const session of DEV_SESSIONS)
      await analyzeSession(join(TRANSCRIPTS_DIR, `${session}.jsonl`), {})
  })
  const parse = await best(5, () => jsonParseEveryLine(paths))
  process.stdout.write(`### Throughput on the 3 dev sessions (${round(size)} MB, best of 5)\n\n`)
  process.stdout.write('| reader | seconds | MB/s | vs transcript stats |\n|---|---|---|---|\n')
  for (const [name, seconds] of [
    ['readSessionDigest (sleep)', digest],
    ['analyzeSession (transcript stats)', stats],
    ['JSON.parse of every line', parse],
  ] as const) {
    process.stdout.write(
      `| ${name} | ${round(seconds, 3)} | ${round(size / seconds)} | ${round(stats / seconds, 2)}x |\n`,
    )
  }
}

async function thousandSessions(folder: string): Promise<void> {
  const sources = [
    '258c7280-ae70-4798-800f-63464d01a85d',
    '4d5611e5-241a-462a-8d15-5122611a9569',
    '8463c716-a2ea-4c14-9efa-87158ebd9f20',
    'short',
    'subagent',
    'tool_heavy',
  ]
  const texts = sources.map((name) =>
    readFileSync(join(TRANSCRIPTS_DIR, `${name}.jsonl`), 'utf8').split('\n'),
  )
  let seed = 42
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
    return seed / 2 ** 32
  }
  const paths: string[] = []
  for (let copy = 0; copy < 1000; copy++) {
    const lines = texts[copy % texts.length] as string[]
    const share = 0.05 + random() * 0.35
    const cut = lines.slice(0, Math.max(3, Math.floor(lines.length * share))).join('\n')
    const session = rewriteIds(sources[copy % sources.length] as string, copy).replace(
      /^(short|subagent|tool_heavy)$/,
      `s${copy}`,
    )
    const path = join(folder, `${session}-${copy}.jsonl`)
    writeFileSync(path, `${rewriteIds(cut, copy)}\n`)
    paths.push(path)
  }
  const size = mb(bytesOf(paths))
  let digested = 0
  const started = performance.now()
  for (const path of paths) if ('digest' in (await readSessionDigest(path))) digested++
  const seconds = (performance.now() - started) / 1000
  process.stdout.write(
    `\n### 1,000 distinct sessions\n\n| sessions | digested | MB | seconds | target |\n|---|---|---|---|---|\n`,
  )
  process.stdout.write(`| 1000 | ${digested} | ${round(size)} | ${round(seconds, 2)} | < 60 s |\n`)
}

async function costPerMegabyte(folder: string): Promise<void> {
  const texts = DEV_SESSIONS.map((session) =>
    readFileSync(join(TRANSCRIPTS_DIR, `${session}.jsonl`), 'utf8'),
  )
  process.stdout.write(
    '\n### Cost per MB by session size (best of 5; baseline: transcript stats on the same file)\n\n| size | seconds | ms per MB | stats ms per MB | digest / stats |\n|---|---|---|---|---|\n',
  )
  for (const target of [100 * 1024, 1024 * 1024, 10 * 1024 * 1024]) {
    const parts: string[] = []
    let length = 0
    for (let copy = 0; length < target; copy++) {
      const text = rewriteIds(texts[copy % texts.length] as string, copy)
      parts.push(text)
      length += text.length
    }
    const whole = parts.join('')
    const cut = whole.slice(0, whole.lastIndexOf('\n', target) + 1)
    const dir = join(folder, `size-${target}`)
    mkdirSync(dir)
    const path = join(dir, 'session.jsonl')
    writeFileSync(path, cut)
    const seconds = await best(5, () => readSessionDigest(path))
    const baseline = await best(5, () => analyzeSession(path, {}))
    const size = mb(statSync(path).size)
    process.stdout.write(
      `| ${round(size, 2)} MB | ${round(seconds, 4)} | ${round((seconds * 1000) / size, 1)} | ${round((baseline * 1000) / size, 1)} | ${round(seconds / baseline, 2)}x |\n`,
    )
  }
}

async function main(): Promise<void> {
  if (!HAS_SHARED) {
    process.stdout.write(`skipped: ${SHARED_SKIP_REASON}\n`)
    return
  }
  const folder = mkdtempSync(join(tmpdir(), 'somnus-bench-sleep-read-'))
  try {
    await throughput()
    await thousandSessions(folder)
    await costPerMegabyte(folder)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

await main()
