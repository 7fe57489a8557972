/**
 * The example creature loop (examples/creature-loop.ts) end to end: real HTTP to a loopback
 * Messages-API stand-in, real tool calls (bash runs in a temp folder), the model calling
 * set_sleep itself, the consolidation, and the wake message as the next context. The clock is the
 * test's: a 300 s sleep passes at once.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCreatureLoop } from '../examples/creature-loop.ts'
import { countTokens } from '../src/engine/core/tokens.ts'
import {
  type CreatureStandIn,
  STAND_IN_MAX_TOKENS,
  startCreatureStandIn,
} from './support/creature-stand-in.ts'

let standIn: CreatureStandIn | undefined
afterEach(async () => {
  await standIn?.close()
})

const bash = (command: string, say?: string) => ({
  tool: 'bash',
  input: { command },
  ...(say ? { say } : {}),
})

describe('examples/creature-loop.ts against a loopback Messages API', () => {
  it('acts with real tools, calls set_sleep, dreams, and wakes to the wake message', async () => {
    standIn = await startCreatureStandIn([
      bash('echo "Release v2 is due on Friday" > plan.txt', 'I will write down the plan first.'),
      bash('cat plan.txt'),
      bash('mkdir -p src && echo "export const version = 2" > src/version.ts'),
      bash('ls src'),
      bash('grep -c version src/version.ts'),
      bash('cat missing.txt'),
      {
        tool: 'set_sleep',
        input: { seconds: 300 },
        say: 'The plan is written and the version file exists. Time to rest.',
      },
      { text: 'Awake. Next: fix the missing.txt error, then prepare the release.' },
    ])
    let now = Date.parse('2026-02-12T09:00:00Z')
    const folder = mkdtempSync(join(tmpdir(), 'somnus-creature-'))
    const lines: string[] = []
    const result = await runCreatureLoop({
      folder,
      baseUrl: standIn.url,
      apiKey: 'stand-in-key',
      clock: { now: () => new Date(now) },
      wait: async (seconds) => {
        now += seconds * 1000
      },
      log: (line) => lines.push(line),
    })

    // Real tools ran in the work folder.
    expect(readFileSync(join(folder, 'plan.txt'), 'utf8')).toBe('Release v2 is due on Friday\n')
    expect(existsSync(join(folder, 'src/version.ts'))).toBe(true)
    expect(result).toMatchObject({ turns: 8, actions: 6 })

    // Every request offered both tools; each tool_result answered its tool_use.
    const requests = standIn.agentRequests().map(
      (request) =>
        request.body as {
          tools: { name: string }[]
          messages: { role: string; content: unknown }[]
        },
    )
    expect(requests).toHaveLength(8)
    for (const request of requests)
      expect(request.tools.map((tool) => tool.name)).toEqual(['bash', 'set_sleep'])
    const second = requests[1]?.messages.at(-1)?.content as {
      type: string
      tool_use_id: string
      content: string
    }[]
    expect(second[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_00' })
    expect(requests[2]?.messages.at(-1)?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_01', content: 'Release v2 is due on Friday' },
    ])

    // The model's set_sleep consolidated (6 actions: a full dream with the extractive mind).
    expect(result.sleeps).toHaveLength(1)
    expect(result.sleeps[0]).toMatchObject({
      consolidation: 'full',
      sleep: { seconds: 300, reason: 'voluntary' },
    })
    const dreams = readFileSync(join(folder, '.self/dreams.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(dreams).toHaveLength(1)
    expect(dreams[0]).toMatchObject({ kind: 'full', actions: 6, model: 'extractive' })
    const observations = readFileSync(join(folder, '.self/observations.md'), 'utf8')
    expect(observations).toMatch(
      /^# Observations\n\n## 2026-02-12\n\n<!-- dream dream_[0-9a-f]{8} -->\n/,
    )
    for (const line of observations.split('\n').filter((text) => /^(RED|YLW|GRN) /.test(text))) {
      expect(line).toMatch(/^(RED|YLW|GRN) 09:00 \S/)
    }
    expect(observations).toContain('Release v2 is due on Friday')

    // After the sleep the context is the wake message, nothing older.
    const afterSleep = requests[7]?.messages
    expect(afterSleep).toHaveLength(1)
    expect(afterSleep?.[0]?.content).toMatch(
      /^You woke up at 2026-02-12T09:05:00Z after sleeping 300s\. This is cycle 2\.\n/,
    )
    expect(afterSleep?.[0]?.content).toContain('\nDuring sleep you reflected:\n')
    expect(afterSleep?.[0]?.content).toContain('Full history: .self/conversation.jsonl')
    expect(result.wakeMessages).toEqual([afterSleep?.[0]?.content])

    // Total recall holds every action, what the creature said, and the wake message.
    const conversation = readFileSync(join(folder, '.self/conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(conversation.filter((entry) => entry.role === 'tool')).toHaveLength(6)
    expect(
      conversation.filter((entry) => entry.role === 'assistant').map((entry) => entry.content),
    ).toEqual([
      'I will write down the plan first.',
      'The plan is written and the version file exists. Time to rest.',
      'Awake. Next: fix the missing.txt error, then prepare the release.',
    ])
    expect(conversation.filter((entry) => entry.kind === 'wake')).toHaveLength(1)
    expect((await result.mind.recall('missing.txt'))[0]?.file).toBe('conversation.jsonl')
  })

  it('keeps the context across naps and replaces it only after a dream; wake messages never pile up', async () => {
    const naps = Array.from({ length: 8 }, (_, index) => [
      bash(`echo step ${index} >> log.txt`),
      { tool: 'set_sleep', input: { seconds: 5 } },
    ]).flat()
    standIn = await startCreatureStandIn([
      bash('echo "Never edit vendor/ by hand." > RULES.md', 'Writing down the rule.'),
      ...naps,
      { tool: 'set_sleep', input: { seconds: 300 }, say: 'Resting properly now.' },
      { text: 'Awake again.' },
    ])
    let now = Date.parse('2026-02-12T09:00:00Z')
    const folder = mkdtempSync(join(tmpdir(), 'somnus-creature-naps-'))
    const result = await runCreatureLoop({
      folder,
      baseUrl: standIn.url,
      apiKey: 'stand-in-key',
      clock: { now: () => new Date(now) },
      wait: async (seconds) => {
        now += seconds * 1000
      },
      log: () => {},
    })
    const requests = standIn
      .agentRequests()
      .map((request) => request.body as { messages: { role: string; content: unknown }[] })
    expect(result.sleeps.slice(0, 8).map((sleep) => sleep.consolidation)).toEqual(
      Array(8).fill('none'),
    )
    expect(result.sleeps[8]?.dream).not.toBeNull()
    // After each nap the model sees everything before it: the context only grew.
    const lengths = requests.slice(0, 18).map((request) => request.messages.length)
    for (const [index, length] of lengths.entries()) expect(length).toBe(1 + 2 * index)
    const afterNaps = JSON.stringify(requests[17]?.messages)
    expect(afterNaps).toContain('step 0')
    expect(afterNaps).not.toContain('You woke up')
    // After the dream: one message, the wake message.
    const afterDream = requests[18]?.messages
    expect(afterDream).toHaveLength(1)
    expect(String(afterDream?.[0]?.content)).toMatch(/^You woke up at /)
    expect(result.wakeMessages).toHaveLength(1)
    // The rebuilt window holds one wake message, however many naps were logged.
    const context = await result.mind.context()
    expect(context.messages.filter(({ entry }) => entry.kind === 'wake')).toHaveLength(1)
  })

  it('consolidates 80 large tool outputs with the model within its prompt budget', {
    timeout: 120_000,
  }, async () => {
    standIn = await startCreatureStandIn(
      Array.from({ length: 80 }, (_, index) =>
        bash(`seq ${index * 10_000} ${index * 10_000 + 1_700}`),
      ),
    )
    let now = Date.parse('2026-02-12T09:00:00Z')
    const folder = mkdtempSync(join(tmpdir(), 'somnus-creature-budget-'))
    const result = await runCreatureLoop({
      folder,
      baseUrl: standIn.url,
      apiKey: 'stand-in-key',
      consolidateWithModel: true,
      maxTurns: 80,
      clock: { now: () => new Date(now) },
      wait: async (seconds) => {
        now += seconds * 1000
      },
      log: () => {},
    })
    expect(result.actions).toBe(80)
    const conversation = readFileSync(join(folder, '.self/conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line, index) => ({ ...JSON.parse(line), line: index + 1 }))
    const logged = conversation.filter((entry) => entry.role === 'tool')
    const raw = logged.reduce((sum, entry) => sum + countTokens(entry.content), 0)
    expect(raw).toBeGreaterThan(STAND_IN_MAX_TOKENS)
    const consolidations = standIn.requests.filter(
      (request) => !Array.isArray((request.body as { tools?: unknown }).tools),
    )
    expect(consolidations).toHaveLength(1)
    const body = consolidations[0]?.body as { messages: { content: string }[] }
    const prompt = body.messages[0]?.content ?? ''
    const budget = result.mind.config.promptBudgetTokens
    expect(countTokens(prompt)).toBeLessThanOrEqual(budget + 1_000)
    // Every line is still there and citable; the long outputs were clipped, not dropped.
    for (const entry of logged) expect(prompt).toContain(`\n[${entry.line}] `)
    expect(prompt).toMatch(/characters clipped: conversation\.jsonl line \d+\]/)
    expect(result.sleeps.at(-1)).toMatchObject({
      consolidation: 'full',
      sleep: { reason: 'fatigue' },
    })
    expect(result.sleeps.at(-1)?.dream?.kind).toBe('full')
  })
})
