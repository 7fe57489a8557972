/** The library entry point, used the way an agent platform would: only through `src/index.ts`. */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  addBookmark,
  addSleepDebt,
  buildSnapshot,
  countTokens,
  createExtractiveLanguageModel,
  createSomnus,
  getSleepHistory,
  getSleepStatus,
  isSomnusError,
  runSleep,
} from '../src/index.ts'

describe('library API', () => {
  it('runs a sleep cycle on a brain it opens', async () => {
    const project = mkdtempSync(join(tmpdir(), 'somnus-library-'))
    await expect(createSomnus({ cwd: project, env: {} })).rejects.toThrowError(/somnus init/)
    const { brain } = await createSomnus({ projectDir: project, env: {}, warn: () => undefined })

    await addSleepDebt(brain, { score: 3, description: 'Designed the retry policy with the user' })
    await addBookmark(brain, {
      message: 'Retries use exponential backoff capped at 30 s',
      salience: 3,
    })
    const tired = await getSleepStatus(brain)
    expect(tired).toMatchObject({ debt: 3, level: 'Alert' })

    const snapshot = await buildSnapshot(brain, { budgetChars: 2_000 })
    expect(snapshot.text.length).toBeLessThanOrEqual(2_000)
    expect(snapshot.text).toContain('Retries use exponential backoff')

    const result = await runSleep(brain, { model: createExtractiveLanguageModel() })
    expect(result.applied).toBe(true)
    expect(result.plan.counts).toMatchObject({ sessions: 1, bookmarks: 1 })
    expect((await getSleepStatus(brain)).debt).toBe(0)
    expect(await getSleepHistory(brain, 10)).toHaveLength(1)
    expect(countTokens('Retries use exponential backoff')).toBeGreaterThan(2)
  })

  it('reports bad input as a SomnusError with a code', async () => {
    const { brain } = await createSomnus({
      projectDir: mkdtempSync(join(tmpdir(), 'somnus-library-')),
      env: {},
      warn: () => undefined,
    })
    const failure = await addSleepDebt(brain, { score: 9, description: 'too much' }).catch(
      (error: unknown) => error,
    )
    expect(isSomnusError(failure) && failure.code).toBe('USAGE')
  })
})
