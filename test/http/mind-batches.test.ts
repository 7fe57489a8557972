/**
 * Batches of actions over a real socket that push a creature past its fatigue limit several
 * times: every forced sleep is reported (not only the last), also when two batches for one
 * creature arrive at once, and what the answers report is what the folder holds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MindEventsResponseSchema } from '../../src/surfaces/http/schemas/mind-schemas.ts'
import { tenantMinds } from '../../src/surfaces/http/tenant-minds.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'

let fixture: HttpServiceFixture
let folder: string
let now = Date.parse('2026-02-12T08:00:00Z')

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'somnus-mind-batches-'))
  mkdirSync(join(folder, 'acme'))
  writeFileSync(
    join(folder, 'acme', 'mind.json'),
    JSON.stringify({ fatigueWarning: 4, fatigueLimit: 5, deepSleepEvery: 100 }),
  )
  const minds = tenantMinds({ folder, clock: { now: () => new Date(now) } })
  fixture = await openHttpService('pglite', 'socket', { minds })
}, 180_000)
afterAll(async () => {
  await fixture?.close()
  rmSync(folder, { recursive: true, force: true })
})

const actions = (count: number, tag: string) => ({
  events: Array.from({ length: count }, (_, index) => ({
    type: 'action',
    tool: 'bash',
    content: `npm test -> ${index} failed in ${tag}.spec.ts`,
  })),
})

async function post(body: unknown) {
  const response = await fixture.send('/api/v1/mind/events', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fixture.keys.first}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  return MindEventsResponseSchema.parse(await response.json())
}

function dreamCount(): number {
  return readFileSync(join(folder, 'acme', 'dreams.jsonl'), 'utf8')
    .trim()
    .split('\n').length
}

describe('a batch that forces several sleeps', () => {
  it('reports every forced sleep, the ones in between included', async () => {
    const answer = await post(actions(15, 'one'))
    expect(answer.forced_sleeps).toHaveLength(3)
    expect(answer.forced_sleeps.map((sleep) => sleep.sleep.reason)).toEqual([
      'fatigue',
      'fatigue',
      'fatigue',
    ])
    expect(answer.forced_sleep).toEqual(answer.forced_sleeps.at(-1))
    expect(answer.results.filter((result) => result.forcedSleep)).toHaveLength(3)
    // Asleep after the first forced sleep: the later actions say so.
    expect(answer.results[5]?.asleep).toMatch(/^The creature is asleep until /)
    const dreamed = answer.forced_sleeps.filter((sleep) => sleep.dream !== null).length
    expect(dreamCount()).toBe(dreamed)
  })

  it('reports every forced sleep of two batches that arrive at once', async () => {
    now += 3_600_000
    const before = dreamCount()
    const [left, right] = await Promise.all([post(actions(10, 'left')), post(actions(10, 'right'))])
    const forced = [...(left?.forced_sleeps ?? []), ...(right?.forced_sleeps ?? [])]
    expect(forced).toHaveLength(4)
    const dreamed = forced.filter((sleep) => sleep.dream !== null).length
    expect(dreamCount() - before).toBe(dreamed)
    const tools = readFileSync(join(folder, 'acme', 'conversation.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .filter((line) => JSON.parse(line).role === 'tool')
    expect(tools).toHaveLength(35)
  })
})
