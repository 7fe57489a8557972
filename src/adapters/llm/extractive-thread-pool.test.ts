/** The extractive model on worker threads: the same summaries as on the calling thread, on real threads. */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConversation } from '../../../bench/locomo-data.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../../../test/support/shared-data.ts'
import { summarizeLevels } from '../../core/extractive/summarize.ts'
import type { Unit } from '../../ports/language-model.ts'
import { createExtractiveLanguageModel } from './extractive-language-model.ts'
import { createExtractiveThreadPool } from './extractive-thread-pool.ts'

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

describe('createExtractiveThreadPool', () => {
  const pool = createExtractiveThreadPool(2)
  afterAll(() => pool.close())

  it('gives the summaries of the calling thread, many calls at once, all on worker threads', async () => {
    const texts = inputs()
    const answers = await Promise.all(texts.map((units) => pool.summarizeLevels(units, [500, 100])))
    texts.forEach((units, index) => {
      expect(answers[index]).toEqual(summarizeLevels(units, [500, 100]))
    })
    expect(pool.fallbacks).toBe(0)
  })

  it('lets the process exit once its calls are answered, used threads and idle ones alike', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-pool-'))
    try {
      const script = join(folder, 'one-call.mts')
      const poolPath = fileURLToPath(new URL('./extractive-thread-pool.ts', import.meta.url))
      writeFileSync(
        script,
        [
          `const { createExtractiveThreadPool } = await import(${JSON.stringify(poolPath)})`,
          'const pool = createExtractiveThreadPool(2)',
          `const [summary] = await pool.summarizeLevels(${JSON.stringify(UNITS)}, [40])`,
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

  it('answers on the calling thread when no worker can start', async () => {
    const broken = createExtractiveThreadPool(2, new URL('./no-such-worker.js', import.meta.url))
    const answer = await broken.summarizeLevels(UNITS, [40])
    expect(answer).toEqual(summarizeLevels(UNITS, [40]))
    expect(broken.fallbacks).toBe(1)
    await broken.close()
  })

  it('answers calls in flight on the calling thread when closed', async () => {
    const closing = createExtractiveThreadPool(1)
    const answers = Array.from({ length: 4 }, () => closing.summarizeLevels(UNITS, [40, 20]))
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
    await expect(threaded.summarize({ units: UNITS, budgetTokens: -1 })).rejects.toMatchObject({
      code: 'USAGE',
    })
  })
})
