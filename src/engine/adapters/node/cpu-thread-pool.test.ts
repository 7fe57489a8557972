/** The CPU pool on real worker threads: the same answers as the calling thread, in fair turns. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConversation } from '../../../../bench/locomo-data.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../../../../test/support/shared-data.ts'
import { handoffRecord } from '../../../service/core/handoff-record.ts'
import { SERVICE_CPU_TASKS } from '../../../service/service-cpu-tasks.ts'
import { groupSimilar } from '../../core/extractive/grouping.ts'
import { summarizeLevels } from '../../core/extractive/summarize.ts'
import type { Unit } from '../../ports/language-model.ts'
import { createExtractiveLanguageModel } from '../llm/extractive-language-model.ts'
import { createCpuThreadPool } from './cpu-thread-pool.ts'
import { lazyWordVectors } from './word-vectors-file.ts'

const TURNS: [string, string][] = [
  ['Ann', 'Hi Bob! Good to see you.'],
  ['Bob', 'We decided to move the launch to 14 March because the Oslo office is not ready.'],
  ['Ann', 'Haha, thanks. I prefer the blue logo; Kim promised the final files by Friday.'],
  ['Bob', 'The build failed with ENOENT twice; fixed by creating dist/ before the copy step.'],
  ['Ann', 'Cool, bye!'],
]
const UNITS: Unit[] = TURNS.map(([speaker, text], index) => ({
  id: `t${index}`,
  speaker,
  text,
  timestamp: '2026-03-02T08:10:00Z',
}))

/** Texts to summarize: LoCoMo sessions when the shared data is here, else variations of UNITS. */
function inputs(): Unit[][] {
  if (!HAS_SHARED)
    return Array.from({ length: 20 }, (_, index) => UNITS.slice(index % 3).map((unit) => unit))
  const files = readdirSync(LOCOMO_DIR).filter((name) => name.endsWith('.json'))
  return files.flatMap((file) =>
    loadConversation(join(LOCOMO_DIR, file)).sessions.map((session) => session.units),
  )
}

/** A handoff whose text takes the tokenizer a while: unspaced random letters. */
function slowInput(letters: number) {
  const word = Array.from({ length: letters }, (_, index) =>
    String.fromCharCode(97 + ((index * 7919 + index * index) % 26)),
  ).join('')
  return { experienced: word }
}

const FIXED = { handoffId: 'ho_1', createdAt: '2026-03-02T08:10:00.000Z' }

/** The service's tasks and worker file, as compose-service.ts starts its pool: handoffRecord too. */
const SERVICE_POOL = {
  tasks: SERVICE_CPU_TASKS,
  workerUrl: new URL('../../../service/cpu-worker.ts', import.meta.url),
}

describe('createCpuThreadPool', () => {
  const pool = createCpuThreadPool({
    ...SERVICE_POOL,
    threads: 2,
    limits: () => ({ running: 4, waiting: 1000 }),
  })
  afterAll(() => pool.close())

  it('gives the answers of the calling thread, many calls at once, all on worker threads', async () => {
    const texts = inputs()
    const answers = await Promise.all(
      texts.map((units) => pool.run('jobs', 'summarizeLevels', [units, [500, 100]])),
    )
    texts.forEach((units, index) => {
      expect(answers[index]).toEqual(summarizeLevels(units, [500, 100]))
    })
    expect(await pool.run('jobs', 'groupSimilar', [UNITS, 0.2])).toEqual(groupSimilar(UNITS, 0.2))
    const input = {
      experienced: 'token: sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123',
      learned: 'x',
    }
    expect(await pool.run('acme', 'handoffRecord', ['acme', input, FIXED])).toEqual(
      handoffRecord('acme', input, FIXED),
    )
    expect(pool.fallbacks).toBe(0)
  })

  it("serves tenants in turns: one tenant's backlog does not run ahead of another's one task", async () => {
    const fair = createCpuThreadPool({ ...SERVICE_POOL, threads: 1 })
    try {
      const finished: string[] = []
      const track = (name: string, promise: Promise<unknown>) =>
        promise.then(() => {
          finished.push(name)
        })
      const slow = slowInput(20_000)
      const all = [
        ...['a1', 'a2', 'a3', 'a4'].map((name) =>
          track(name, fair.run('a', 'handoffRecord', ['a', slow, FIXED])),
        ),
        track('b1', fair.run('b', 'handoffRecord', ['b', slow, FIXED])),
      ]
      await Promise.all(all)
      expect(finished).toEqual(['a1', 'b1', 'a2', 'a3', 'a4'])
    } finally {
      await fair.close()
    }
  })

  it('refuses work beyond what a lane may hold waiting, with BUSY', async () => {
    const small = createCpuThreadPool({
      ...SERVICE_POOL,
      threads: 1,
      limits: () => ({ running: 1, waiting: 2 }),
    })
    try {
      const runs = Array.from({ length: 5 }, () =>
        small.run('a', 'handoffRecord', ['a', slowInput(5_000), FIXED]).then(
          () => 'done',
          (error: { code?: string }) => error.code,
        ),
      )
      // One runs, two wait, two are refused; another tenant still gets in.
      const other = small.run('b', 'handoffRecord', ['b', { learned: 'ok' }, FIXED])
      expect(await Promise.all(runs)).toEqual(['done', 'done', 'done', 'BUSY', 'BUSY'])
      expect((await other).tenant_id).toBe('b')
    } finally {
      await small.close()
    }
  })

  it('lets the process exit once its calls are answered, used threads and idle ones alike', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-pool-'))
    try {
      const script = join(folder, 'one-call.mts')
      const poolPath = fileURLToPath(new URL('./cpu-thread-pool.ts', import.meta.url))
      writeFileSync(
        script,
        [
          `const { createCpuThreadPool } = await import(${JSON.stringify(poolPath)})`,
          'const pool = createCpuThreadPool({ threads: 2 })',
          `const [summary] = await pool.run('a', 'summarizeLevels', [${JSON.stringify(UNITS)}, [40]])`,
          'console.log(summary.sources.length > 0 && pool.fallbacks === 0 ? "answered" : "wrong")',
        ].join('\n'),
      )
      const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
        encoding: 'utf8',
        timeout: 20_000,
      })
      expect(run.stdout.trim()).toBe('answered')
      expect(run.status).toBe(0)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it('replaces a thread that stops mid-task: that task fails, the next runs on the new thread', async () => {
    const crashing = createCpuThreadPool({
      threads: 1,
      workerUrl: new URL('../../../../test/fixtures/crashing-cpu-worker.mjs', import.meta.url),
    })
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the fixture worker answers any arguments
      const run = (word: string) => crashing.run('a', 'handoffRecord', [word as any, {}, FIXED])
      expect(await run('first')).toBe('done first')
      const waiting = run('after')
      await expect(run('crash')).rejects.toThrow(/stopped while running this task/)
      expect(await waiting).toBe('done after')
      expect(await run('again')).toBe('done again')
      expect(crashing.fallbacks).toBe(0)
    } finally {
      await crashing.close()
    }
  })

  it('answers on the calling thread when no worker can start', async () => {
    const broken = createCpuThreadPool({
      threads: 2,
      workerUrl: new URL('./no-such-worker.js', import.meta.url),
    })
    const answer = await broken.run('a', 'summarizeLevels', [UNITS, [40]])
    expect(answer).toEqual(summarizeLevels(UNITS, [40]))
    expect(broken.fallbacks).toBe(1)
    await broken.close()
  })

  it('answers calls in flight and waiting on the calling thread when closed', async () => {
    const closing = createCpuThreadPool({ threads: 1 })
    const answers = Array.from({ length: 4 }, () =>
      closing.run('a', 'summarizeLevels', [UNITS, [40, 20]]),
    )
    await closing.close()
    for (const answer of await Promise.all(answers))
      expect(answer).toEqual(summarizeLevels(UNITS, [40, 20]))
  })
})

describe('createExtractiveLanguageModel({ threads })', () => {
  it('asks for calls in flight and answers as the single-thread model does', async () => {
    const threaded = createExtractiveLanguageModel({ threads: 2 })
    const plain = createExtractiveLanguageModel()
    expect(threaded.concurrency).toBe(4)
    expect(plain.concurrency).toBeUndefined()
    expect(await threaded.summarize({ units: UNITS, budgetTokens: 30 })).toEqual(
      await plain.summarize({ units: UNITS, budgetTokens: 30 }),
    )
    expect(await threaded.summarizeLevels?.({ units: UNITS, budgets: [60, 20] })).toEqual(
      await plain.summarizeLevels?.({ units: UNITS, budgets: [60, 20] }),
    )
    expect(await threaded.groupSimilar({ units: UNITS, threshold: 0.1 })).toEqual(
      await plain.groupSimilar({ units: UNITS, threshold: 0.1 }),
    )
    await expect(threaded.summarize({ units: UNITS, budgetTokens: -1 })).rejects.toMatchObject({
      code: 'USAGE',
    })
    await expect(threaded.groupSimilar({ units: UNITS, threshold: 2 })).rejects.toMatchObject({
      code: 'USAGE',
    })
  })
})

describe('createExtractiveLanguageModel({ threads, wordVectors })', () => {
  it('groups on the threads as on the calling thread, the file shared, not copied', async () => {
    const wordVectors = lazyWordVectors()
    const threaded = createExtractiveLanguageModel({ threads: 2, wordVectors })
    const plain = createExtractiveLanguageModel({ wordVectors })
    const statements = [
      'someone who tests before shipping',
      'I never ship a change until the tests pass',
      'I run the tests, then I ship',
      'someone who buys vegetables at the market',
      'I spent my savings on a new car',
    ].map((text, index) => ({ id: `s${index}`, text }))
    const request = { units: statements, threshold: 0.2 }
    const [onThreads, again, onCaller] = [
      await threaded.groupSimilar(request),
      await threaded.groupSimilar(request),
      await plain.groupSimilar(request),
    ]
    expect(onThreads).toEqual(onCaller)
    expect(again).toEqual(onCaller)
    expect(onCaller.value.length).toBeGreaterThan(0)
    // The vectors change the answer: stems alone group these differently.
    const stemsOnly = await createExtractiveLanguageModel().groupSimilar(request)
    expect(stemsOnly.value).not.toEqual(onCaller.value)
    expect((await wordVectors()).bytes.buffer).toBeInstanceOf(SharedArrayBuffer)
  })
})
