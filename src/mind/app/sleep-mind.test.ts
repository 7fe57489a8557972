/** The sleep cycle through createMind on the in-memory store, with an injected clock and model. */
import { describe, expect, it } from 'vitest'
import { ALL_SECRETS_TEXT, SECRET_SAMPLES } from '../../../test/support/secret-corpus.ts'
import { sequentialIds } from '../../engine/ports/id-generator.ts'
import { createExtractiveConsolidationModel } from '../adapters/llm/consolidation-models.ts'
import { createMemoryMindStore } from '../adapters/memory/memory-mind-store.ts'
import { createMind, type MindOptions } from '../create-mind.ts'
import type { ConsolidationModel, ConsolidationRequest } from '../ports/consolidation-model.ts'
import type { MindFiles, MindStore } from '../ports/mind-store.ts'

const START = Date.parse('2026-02-12T09:00:00Z')

/** A creature whose clock the test moves and whose model answers from a script. */
function creature(answers: Array<string | Error> = [], options: Partial<MindOptions> = {}) {
  let now = START
  const requests: ConsolidationRequest[] = []
  const extractive = createExtractiveConsolidationModel()
  const model: ConsolidationModel = {
    name: 'scripted',
    consolidate: async (request) => {
      requests.push(request)
      const answer = answers.shift()
      if (answer instanceof Error) throw answer
      if (answer !== undefined)
        return { text: answer, usage: { input_tokens: 7, output_tokens: 3 } }
      return extractive.consolidate(request)
    },
  }
  const mind = createMind({
    memory: true,
    model,
    clock: { now: () => new Date(now) },
    ids: sequentialIds(),
    ...options,
  })
  return {
    mind,
    requests,
    advance: (seconds: number) => {
      now += seconds * 1000
    },
  }
}

async function busyCycle(mind: ReturnType<typeof createMind>, actions = 6) {
  await mind.record({
    role: 'user',
    content: 'Deploy the janee app by Friday; the staging token is in the vault.',
  })
  for (let index = 0; index < actions; index += 1) {
    await mind.action({ tool: 'bash', content: `npm test -> ${index} failing in login.spec.ts` })
  }
}

const GOOD =
  'OBSERVATIONS:\nRED 09:00 Deploy janee by Friday [lines 1]\n\nREFLECTION:\nOn track.\n\nPRIORITY:\nFix login.spec.ts first\nthen deploy'

describe('consolidation answers', () => {
  it('retries a malformed answer, telling the model what was wrong, then uses the good one', async () => {
    const { mind, requests } = creature(['Sure! Here are my observations: ...', GOOD])
    await busyCycle(mind)
    const result = await mind.sleep({ seconds: 60 })
    expect(result.consolidation).toBe('full')
    expect(requests).toHaveLength(2)
    expect(requests[1]?.prompt).toMatch(/could not be read: expected the headers/)
    expect(result.dream).toMatchObject({
      kind: 'full',
      model: 'scripted',
      reflection: 'On track.',
      priority: 'Fix login.spec.ts first',
      // The model's line, and the newest unfixed failure it left out.
      observations: 2,
    })
    expect(result.dream?.detail[0]?.sources).toEqual([1])
    expect(result.usage).toEqual({ input_tokens: 14, output_tokens: 6 })
    expect((await mind.observations()).text).toContain('RED 09:00 Deploy janee by Friday')
  })

  it('records a RED observation when every answer is malformed: no crash, no lost message', async () => {
    const { mind, requests } = creature([
      'nonsense',
      'OBSERVATIONS:\nORANGE 09:00 x\nREFLECTION:\nx\nPRIORITY:\ny',
    ])
    await busyCycle(mind)
    const result = await mind.sleep({ seconds: 60 })
    expect(requests).toHaveLength(2)
    expect(result.consolidation).toBe('failed')
    expect(result.reason).toMatch(/ORANGE 09:00 x/)
    const { observations } = await mind.observations()
    expect(observations).toHaveLength(3)
    expect(observations[0]).toMatchObject({ priority: 'RED', sources: [1, 2, 3, 4, 5, 6, 7] })
    expect(observations[0]?.text).toMatch(
      /^Consolidation failed .*conversation\.jsonl lines 1-7 are kept unconsolidated/,
    )
    // The person's order and the unfixed failure are kept all the same: not up to the model.
    expect(observations[2]?.text).toBe('tool bash: npm test -> 5 failing in login.spec.ts')
    expect(observations[1]).toMatchObject({
      priority: 'RED',
      sources: [1],
      text: 'user: Deploy the janee app by Friday; the staging token is in the vault.',
    })
    expect(
      (await mind.recall('staging token vault')).map((hit) => `${hit.file}:${hit.line}`),
    ).toContain('conversation.jsonl:1')
    expect((await mind.dreams())[0]?.kind).toBe('failed')
  })

  it('records a failure the same way when the model call itself throws', async () => {
    const { mind } = creature([
      new Error('connect ECONNREFUSED'),
      new Error('connect ECONNREFUSED'),
    ])
    await busyCycle(mind)
    const result = await mind.sleep({ seconds: 60 })
    expect(result.consolidation).toBe('failed')
    expect(result.reason).toMatch(/ECONNREFUSED/)
  })
})

describe('the sleep cycle', () => {
  it('dreams, then only pauses within 10 minutes, then dreams again on new lines only', async () => {
    const { mind, requests, advance } = creature()
    await busyCycle(mind)
    expect((await mind.sleep({ seconds: 60 })).consolidation).toBe('full')
    await mind.wake()
    await busyCycle(mind)
    advance(9 * 60)
    const pause = await mind.sleep({ seconds: 60 })
    expect(pause).toMatchObject({ consolidation: 'none', dream: null })
    expect(requests).toHaveLength(1)
    await mind.wake()
    advance(60)
    const second = await mind.sleep({ seconds: 60 })
    expect(second.consolidation).toBe('full')
    // The second dream reads what came after the first one (line 8 and 16 are wake lines: the mind's own).
    expect(requests[1]?.activity.map((line) => line.line)).toEqual([9, 10, 11, 12, 13, 14, 15])
    expect(second.dream?.lines).toEqual([9, 15])
  })

  it('a cycle with nothing but a wake-up has nothing to consolidate', async () => {
    const { mind, advance } = creature()
    await busyCycle(mind)
    await mind.sleep({ seconds: 60 })
    await mind.wake()
    advance(3_600)
    expect(await mind.sleep({ seconds: 60 })).toMatchObject({
      consolidation: 'none',
      reason: 'nothing happened since the last dream',
    })
  })

  it('a short cycle gets a light dream without a model call', async () => {
    const { mind, requests } = creature()
    await mind.action({ tool: 'bash', content: 'ls -> README.md' })
    const result = await mind.sleep({ seconds: 60 })
    expect(result.consolidation).toBe('light')
    expect(result.dream).toMatchObject({ kind: 'light', model: 'none', observations: 0 })
    expect(requests).toHaveLength(0)
  })

  it('warns at 60 actions, and at 80 forces a consolidation and a 300 s sleep whatever the interval', async () => {
    const { mind, advance } = creature()
    await busyCycle(mind)
    await mind.sleep({ seconds: 60 })
    await mind.wake()
    const warnings: number[] = []
    let forced = null
    for (let action = 1; action <= 80; action += 1) {
      advance(1)
      const result = await mind.action({
        tool: 'bash',
        content: `step ${action}: curl https://example.com/${action} -> 200`,
      })
      if (result.warning) warnings.push(action)
      if (result.forcedSleep) forced = { action, sleep: result.forcedSleep }
    }
    expect(warnings).toEqual([60])
    expect(forced?.action).toBe(80)
    expect(forced?.sleep).toMatchObject({
      consolidation: 'full',
      sleep: { seconds: 300, reason: 'fatigue' },
    })
    const status = await mind.status()
    expect(status).toMatchObject({ actions: 0, fatigue: 'rested', dreams: 2 })
    expect(status.sleeping?.reason).toBe('fatigue')
    const context = await mind.context()
    expect(context.messages).toEqual([])
    const log = (await mind.recall('wrapping up')).filter(
      (hit) => hit.file === 'conversation.jsonl',
    )
    expect(log).toHaveLength(1)
  })

  it('refuses a sleep outside 2-86,400 seconds', async () => {
    const { mind } = creature()
    await expect(mind.sleep({ seconds: 1 })).rejects.toMatchObject({ code: 'USAGE' })
    await expect(mind.sleep({ seconds: 86_401 })).rejects.toMatchObject({ code: 'USAGE' })
    await expect(mind.setSleep({ seconds: 'long' })).rejects.toMatchObject({ code: 'USAGE' })
  })

  it('every 10th dream is a deep sleep: priorities.md, diary, archive', async () => {
    const { mind, advance } = creature()
    const deep: number[] = []
    for (let dream = 1; dream <= 10; dream += 1) {
      await busyCycle(mind)
      const result = await mind.sleep({ seconds: 60 })
      if (result.deep) deep.push(dream)
      expect(result.sleep.seconds).toBe(result.deep ? 300 : 60)
      advance(11 * 60)
      await mind.wake()
    }
    expect(deep).toEqual([10])
    const status = await mind.status()
    expect(status).toMatchObject({ dreams: 10, deep_sleep_in: 10 })
  })

  it('wakes with the seed message, and a restart rebuilds the same context from disk', async () => {
    const { mind, advance } = creature([GOOD])
    await busyCycle(mind)
    const slept = await mind.sleep({ seconds: 120 })
    advance(120)
    const woke = await mind.wake()
    expect(woke).toMatchObject({ sleptSeconds: 120, cycle: 2, wasAsleep: true, early: false })
    expect(woke.message).toMatch(
      /^You woke up at 2026-02-12T09:02:00Z after sleeping 120s\. This is cycle 2\./,
    )
    expect(woke.message).toContain('During sleep you reflected:\nOn track.')
    expect(woke.message).toContain('Your priority: Fix login.spec.ts first')
    expect(woke.message).toContain(
      'Standing orders and commitments (until done or revoked):\n- 2026-02-12 RED 09:00 Deploy janee by Friday',
    )
    expect(slept.dream?.priority).toBe('Fix login.spec.ts first')
    const context = await mind.context()
    expect(context.wake).toBeNull()
    expect(context.messages[0]?.entry).toMatchObject({
      role: 'system',
      kind: 'wake',
      content: woke.message,
    })
    expect((await mind.wake()).wasAsleep).toBe(false)
  })
})

describe('two consolidations at once', () => {
  it('the second sleep only pauses while the first consolidates; actions meanwhile count for the next cycle', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const extractive = createExtractiveConsolidationModel()
    const slow: ConsolidationModel = {
      name: 'slow',
      consolidate: async (request) => {
        await gate
        return extractive.consolidate(request)
      },
    }
    const mind = createMind({ memory: true, model: slow, ids: sequentialIds() })
    await busyCycle(mind)
    const first = mind.sleep({ seconds: 60 })
    await new Promise((resolve) => setTimeout(resolve, 10))
    await mind.action({ tool: 'bash', content: 'during the dream' })
    const second = await mind.sleep({ seconds: 60 })
    expect(second).toMatchObject({
      consolidation: 'none',
      reason: 'another process is consolidating: only a pause',
    })
    release()
    expect((await first).consolidation).toBe('full')
    expect((await first).dream?.lines).toEqual([1, 7])
    expect((await mind.status()).actions).toBe(1)
  })
})

describe('a commit cut short (the process died half-way)', () => {
  /** The in-memory store, except that the `dies`-th write matching `when` throws, as a kill would stop it. */
  function dyingStore(when: (operation: string, name: string) => boolean) {
    const inner = createMemoryMindStore()
    let armed = true
    const guard = (operation: string, name: string) => {
      if (armed && when(operation, name)) {
        armed = false
        throw new Error(`killed before ${operation} ${name}`)
      }
    }
    const files: MindFiles = {
      ...inner.files,
      appendLog: async (log, lines) => {
        guard('appendLog', log)
        return inner.files.appendLog(log, lines)
      },
      writeDocument: async (document, text) => {
        guard('writeDocument', document)
        return inner.files.writeDocument(document, text)
      },
    }
    const store: MindStore = {
      ...inner,
      files,
      exclusive: (work) => inner.exclusive(() => work(files)),
    }
    return store
  }

  it('is finished by the next change: the observations are not appended twice, the dream is written once', async () => {
    const store = dyingStore((operation, name) => operation === 'appendLog' && name === 'dreams')
    const mind = createMind({ store, ids: sequentialIds() })
    await busyCycle(mind)
    await expect(mind.sleep({ seconds: 60 })).rejects.toThrow('killed before appendLog dreams')
    expect((await mind.status()).consolidating_since).not.toBeNull()
    await mind.record({ role: 'user', content: 'next message' })
    const text = (await store.files.readDocument('observations')) ?? ''
    expect(text.split('<!-- dream dream_00000001 -->')).toHaveLength(2)
    expect((await mind.dreams()).map((dream) => dream.id)).toEqual(['dream_00000001'])
    expect(await mind.status()).toMatchObject({ dreams: 1, actions: 0, consolidating_since: null })
  })

  it('finishes a deep sleep cut short after archiving without archiving twice', async () => {
    const store = dyingStore(
      (operation, name) => operation === 'writeDocument' && name === 'priorities',
    )
    let now = START
    const mind = createMind({
      store,
      ids: sequentialIds(),
      clock: { now: () => new Date(now) },
      config: { deepSleepEvery: 2 },
    })
    for (const output of [
      'df -h -> 40 GB free on /dev/sda1',
      'nproc -> 2 cores',
      'node -v -> v20.20.2',
      'uptime -> 3 days',
      'free -m -> 7800 MB total',
      'ls -> README.md src test',
    ]) {
      await mind.action({ tool: 'bash', content: output })
    }
    const first = await mind.sleep({ seconds: 60 })
    expect(first.dream?.detail.some((item) => item.priority === 'GRN')).toBe(true)
    now += 3 * 86_400_000
    await mind.wake()
    await busyCycle(mind)
    await expect(mind.sleep({ seconds: 60 })).rejects.toThrow(
      'killed before writeDocument priorities',
    )
    const archived = (await store.files.readDocument('archive')) ?? ''
    expect(archived).toContain('<!-- deep sleep dream_00000002 -->')
    await mind.record({ role: 'user', content: 'next message' })
    expect(
      ((await store.files.readDocument('archive')) ?? '').split(
        '<!-- deep sleep dream_00000002 -->',
      ),
    ).toHaveLength(2)
    expect(await store.files.readDocument('priorities')).toMatch(/^# Priorities/)
    expect((await store.files.readDocument('diary')) ?? '').toContain(
      '<!-- diary dream_00000002 -->',
    )
    expect((await mind.dreams()).map((dream) => dream.deep)).toEqual([false, true])
  })
})

describe('secrets', () => {
  it('never reach the creature files: messages and actions pass the redaction step', async () => {
    const store = createMemoryMindStore()
    const { mind } = creature([], { store })
    await mind.record({ role: 'user', content: ALL_SECRETS_TEXT })
    for (let index = 0; index < 6; index += 1) {
      await mind.action({ tool: 'bash', content: `env -> ${SECRET_SAMPLES[index]?.text}` })
    }
    await mind.sleep({ seconds: 60 })
    const everything = [
      ...(await store.files.readLog('conversation')),
      ...(await store.files.readLog('dreams')),
      (await store.files.readDocument('observations')) ?? '',
    ].join('\n')
    for (const sample of SECRET_SAMPLES) expect(everything).not.toContain(sample.secret)
    expect(everything).toContain('[redacted: anthropic key]')
  })
})
