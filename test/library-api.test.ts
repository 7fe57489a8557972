/** The library entry point, used the way an agent platform would: only through `src/index.ts`. */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { brainUseCases } from '../src/brain/brain-use-cases.ts'
import { createSomnusHooks } from '../src/brain/create-somnus-hooks.ts'
import { fixedClock } from '../src/engine/ports/clock.ts'
import { sequentialIds } from '../src/engine/ports/id-generator.ts'
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
  type LanguageModel,
  locateBrain,
  runSleep,
} from '../src/index.ts'
import { memoryBrain } from './support/memory-brain.ts'
import { REPO_ROOT } from './support/shared-data.ts'

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

describe('createSomnus', () => {
  const quiet = { env: {}, warn: () => undefined }

  it('keeps a memory brain off the disk, and its init writes the settings in memory', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-library-'))
    const somnus = await createSomnus({ ...quiet, memory: true, projectDir: folder })
    await somnus.addSleepDebt({ score: 2, description: 'Paired on the cache layer' })
    await somnus.addBookmark({ message: 'The cache is write-through', salience: 2 })
    const init = await somnus.init({
      templates: { 'core/0.soul.md': '# Soul\n' },
      hookCommand: () => 'somnus-hook',
    })
    expect(init.created).toContain('core/0.soul.md')
    expect(init.hooksChanged).toBe(true)
    expect(await somnus.brain.files.read({ kind: 'core', name: 'soul' })).toBe('# Soul\n')
    expect((await somnus.getSleepStatus()).debt).toBe(2)
    expect(readdirSync(folder)).toEqual([])
  })

  it('opens the same brain on disk from projectDir, contextDir or a folder below', async () => {
    const project = mkdtempSync(join(tmpdir(), 'somnus-library-'))
    const root = join(project, '_agent_context')
    const first = await createSomnus({ ...quiet, projectDir: project })
    await first.addTrigger({ when: 'billing', remind: 'Webhooks retry for 3 days', maxFires: 3 })
    mkdirSync(join(project, 'src', 'billing'), { recursive: true })
    const found = await createSomnus({ ...quiet, cwd: join(project, 'src', 'billing') })
    const named = await createSomnus({ ...quiet, contextDir: root })
    for (const somnus of [found, named]) {
      expect(somnus.brain.root).toBe(root)
      expect((await somnus.listTriggers()).map((trigger) => trigger.when)).toEqual(['billing'])
    }
    expect(locateBrain({ cwd: join(project, 'src'), env: {} })).toBe(root)
    expect(existsSync(join(root, 'state', '.sleep.json'))).toBe(true)
  })

  it('uses the stores, clock, ids and model it is given', async () => {
    const modelCalls: string[] = []
    const extractive = createExtractiveLanguageModel()
    const counted = Object.fromEntries(
      Object.entries(extractive).map(([name, value]) => [
        name,
        typeof value === 'function'
          ? (...args: unknown[]) => {
              modelCalls.push(name)
              return value.apply(extractive, args)
            }
          : value,
      ]),
    ) as LanguageModel
    const brain = memoryBrain()
    const somnus = await createSomnus({
      ...quiet,
      files: brain.files,
      state: brain.state,
      clock: fixedClock('2030-01-02T03:04:05.000Z'),
      ids: sequentialIds(),
      model: counted,
    })
    const bookmark = await somnus.addBookmark({ message: 'Ship on Tuesdays', salience: 3 })
    expect(bookmark).toMatchObject({ id: 'bm_00000001', created_at: '2030-01-02T03:04:05.000Z' })
    expect(await brain.state.read()).toMatchObject({ bookmarks: [{ message: 'Ship on Tuesdays' }] })
    await somnus.addSleepDebt({ score: 2, description: 'Moved the deploy window to Tuesday' })
    const result = await somnus.runSleep()
    expect(result.applied).toBe(true)
    expect(modelCalls).not.toEqual([])
    expect(Object.keys(brain.files.snapshot())).toContain('core/2.memory.md')
  })

  it('keeps the hooks half free of memory stores: memory needs stores there', async () => {
    const failure = await createSomnusHooks({ ...quiet, memory: true }).catch((error) => error)
    expect(isSomnusError(failure) && failure.code).toBe('USAGE')
    expect((failure as Error).message).toContain('createSomnus({ memory: true })')
    const brain = memoryBrain()
    const hooks = await createSomnusHooks({
      ...quiet,
      files: brain.files,
      state: brain.state,
      unitOfWork: brain.unitOfWork,
    })
    expect(await hooks.promptReminder()).toBeNull()
  })

  it('binds every use case of the map under its own function name', async () => {
    const somnus = await createSomnus({ ...quiet, memory: true })
    for (const [name, load] of Object.entries(brainUseCases)) {
      expect((await load()).name).toBe(name)
      expect(typeof (somnus as unknown as Record<string, unknown>)[name]).toBe('function')
    }
    expect(await somnus.listBookmarks()).toEqual([])
  })

  it('names a missing brain and the fix', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'somnus-library-'))
    const failure = await createSomnus({ ...quiet, cwd: empty }).catch((error: unknown) => error)
    expect(isSomnusError(failure) && failure.code).toBe('CONTEXT_NOT_FOUND')
    expect((failure as Error).message).toMatch(/somnus init.*SOMNUS_CONTEXT_DIR/)
  })
})

/** tsx's loader by path: the example runs in an empty folder, where `--import tsx` would not resolve. */
const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href

describe('examples/library-in-memory.ts', () => {
  it('runs as a process: records, sleeps and prints the snapshot, writing nothing', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'somnus-example-'))
    const run = spawnSync(
      process.execPath,
      ['--import', TSX_LOADER, join(REPO_ROOT, 'examples', 'library-in-memory.ts')],
      { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd }, timeout: 60_000 },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Before sleep: debt 2 (Alert), 1 bookmark')
    expect(run.stdout).toMatch(/Sleep: Consolidated 1 session and 1 bookmark \(extractive\)/)
    expect(run.stdout).toContain('After sleep: debt 0')
    const snapshot = run.stdout.slice(run.stdout.indexOf('--- snapshot ---'))
    expect(snapshot).toMatch(/### Active Memory\n- Never retry a payment that the bank declined/)
    expect(readdirSync(cwd)).toEqual([])
  })
})
