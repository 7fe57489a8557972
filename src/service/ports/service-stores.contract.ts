/**
 * The behaviour every `ServiceStores` adapter must show; the SQL adapter runs it on PGlite and on
 * PostgreSQL. Each test works in tenants of its own, so the suite shares one database per file.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import type { Decision } from '../core/decision.ts'
import type { Handoff } from '../core/handoff.ts'
import type { NewJob, ServiceStores } from './service-stores.ts'

/** A full-level handoff with the given fields. */
export function sampleHandoff(
  tenantId: string,
  handoffId: string,
  overrides: Partial<Handoff> = {},
): Handoff {
  return {
    handoff_id: handoffId,
    tenant_id: tenantId,
    session_id: `session-${handoffId}`,
    with_whom: 'Ada',
    experienced: `Worked through ${handoffId}.`,
    noticed: null,
    learned: 'Small steps keep the build green.',
    story: null,
    becoming: null,
    remember: null,
    significance: 0.5,
    tags: ['test'],
    created_at: '2026-01-01T00:00:00.000Z',
    sources: [],
    turns: null,
    compression_level: 'full',
    summary: null,
    summary_sources: [],
    quick_ref: null,
    quick_ref_sources: [],
    integrated_into: null,
    consolidated_at: null,
    parent_handoff_id: null,
    full_tokens: 20,
    summary_tokens: null,
    quick_ref_tokens: null,
    ...overrides,
  }
}

/** An active plain decision. */
export function sampleDecision(
  tenantId: string,
  decisionId: string,
  overrides: Partial<Decision> = {},
): Decision {
  return {
    decision_id: decisionId,
    tenant_id: tenantId,
    kind: 'decision',
    decision: `Decision ${decisionId}`,
    rationale: null,
    status: 'active',
    scope: 'project',
    sources: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    superseded_at: null,
    ...overrides,
  }
}

/** A pending job. */
export function sampleJob(
  tenantId: string,
  jobId: string,
  overrides: Partial<NewJob> = {},
): NewJob {
  return {
    job_id: jobId,
    tenant_id: tenantId,
    job_type: 'handoff_compression',
    scheduled_for: null,
    as_of: null,
    metadata: {},
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  }
}

let tenantCounter = 0

/** Registers the contract tests for the stores `make` gives (called once). */
export function testServiceStores(options: ContractOptions<ServiceStores>): void {
  describeContract('ServiceStores', options, () => serviceStoresSuite(options.make))
}

function serviceStoresSuite(open: () => Promise<ServiceStores>): void {
  let stores: ServiceStores
  beforeAll(async () => {
    stores = await open()
  })

  /** A new tenant for one test. */
  async function tenant(): Promise<string> {
    tenantCounter += 1
    const id = `t${tenantCounter}-${Math.random().toString(36).slice(2, 8)}`
    await stores.tenants.create({ tenant_id: id, name: id, created_at: '2026-01-01T00:00:00.000Z' })
    return id
  }

  describe('tenants and API keys', () => {
    it('has the default tenant, creates others once, and finds live keys by hash only', async () => {
      expect(await stores.tenants.get('default')).toMatchObject({ tenant_id: 'default' })
      const id = await tenant()
      await expect(
        stores.tenants.create({ tenant_id: id, name: 'again', created_at: '2026-01-02T00:00:00Z' }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      const hash = 'a'.repeat(63) + String(tenantCounter % 10)
      await stores.tenants.addApiKey({
        key_id: `key-${id}`,
        tenant_id: id,
        key_hash: hash,
        label: 'ci',
        created_at: '2026-01-01T00:00:00.000Z',
        revoked_at: null,
      })
      expect(await stores.tenants.findApiKeyByHash(hash)).toMatchObject({ tenant_id: id })
      expect(
        await stores.tenants.revokeApiKey('default', `key-${id}`, '2026-01-03T00:00:00Z'),
      ).toBe(false)
      expect(await stores.tenants.revokeApiKey(id, `key-${id}`, '2026-01-03T00:00:00Z')).toBe(true)
      expect(await stores.tenants.findApiKeyByHash(hash)).toBeNull()
      expect((await stores.tenants.listApiKeys(id))[0]?.revoked_at).toBe('2026-01-03T00:00:00.000Z')
      await expect(
        stores.tenants.addApiKey({
          key_id: 'orphan',
          tenant_id: 'no-such-tenant',
          key_hash: 'b'.repeat(64),
          label: '',
          created_at: '2026-01-01T00:00:00.000Z',
          revoked_at: null,
        }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('pages through every tenant in id order, each once', async () => {
      await tenant()
      await tenant()
      const all = (await stores.tenants.list()).map((item) => item.tenant_id)
      const paged: string[] = []
      let afterId: string | null = null
      for (;;) {
        const page = await stores.tenants.page({ afterId, limit: 2 })
        if (page.length === 0) break
        paged.push(...page.map((item) => item.tenant_id))
        afterId = page[page.length - 1]?.tenant_id ?? null
      }
      expect(paged).toEqual([...all].sort())
    })
  })

  describe('handoffs', () => {
    it('round-trips every field, refuses a duplicate id, and keeps tenants apart', async () => {
      const id = await tenant()
      const other = await tenant()
      const handoff = sampleHandoff(id, `${id}-h1`, {
        tags: ['a', 'b'],
        significance: 0.75,
        turns: [{ id: 'D1:1', speaker: 'Ada', text: 'Hello' }],
        sources: ['D1:1'],
      })
      await stores.handoffs.insert([handoff])
      expect(await stores.handoffs.get(id, handoff.handoff_id)).toEqual(handoff)
      expect(await stores.handoffs.get(other, handoff.handoff_id)).toBeNull()
      await expect(stores.handoffs.insert([handoff])).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
    })

    it('inserts only the new handoffs with insertNew, and lets another tenant use the same ids', async () => {
      const id = await tenant()
      const other = await tenant()
      const first = sampleHandoff(id, 'same-id-1')
      await stores.handoffs.insert([first])
      const inserted = await stores.handoffs.insertNew([
        sampleHandoff(id, 'same-id-1', { experienced: 'changed' }),
        sampleHandoff(id, 'same-id-2'),
      ])
      expect(inserted).toEqual(['same-id-2'])
      expect((await stores.handoffs.get(id, 'same-id-1'))?.experienced).toBe(first.experienced)
      expect(await stores.handoffs.insertNew([sampleHandoff(other, 'same-id-1')])).toEqual([
        'same-id-1',
      ])
      // A parent must be a handoff of the same tenant.
      await expect(
        stores.handoffs.insertNew([
          sampleHandoff(other, 'child', { parent_handoff_id: 'same-id-2' }),
        ]),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    })

    it('lists newest first in pages that together hold every handoff once', async () => {
      const id = await tenant()
      const handoffs = Array.from({ length: 7 }, (_, index) =>
        sampleHandoff(id, `${id}-p${index}`, {
          created_at: new Date(Date.UTC(2026, 0, 1 + (index % 3))).toISOString(),
        }),
      )
      await stores.handoffs.insert(handoffs)
      const seen: string[] = []
      let cursor: string | undefined
      for (;;) {
        const page = await stores.handoffs.list(id, { limit: 3, cursor })
        seen.push(...page.items.map((item) => item.handoff_id))
        if (!page.next_cursor) break
        cursor = page.next_cursor
      }
      expect([...seen].sort()).toEqual(handoffs.map((item) => item.handoff_id).sort())
      const dates = seen.map(
        (handoffId) => handoffs.find((h) => h.handoff_id === handoffId)?.created_at ?? '',
      )
      expect(dates).toEqual([...dates].sort().reverse())
      await expect(
        stores.handoffs.list(id, { limit: 3, cursor: 'nonsense' }),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
    })

    it('stops a page at about 4 MB of text, however high the limit, and pages on from there', async () => {
      const id = await tenant()
      // Six handoffs of 1.5 MB: a page of all of them would be a 9 MB answer.
      const handoffs = Array.from({ length: 6 }, (_, index) =>
        sampleHandoff(id, `${id}-big${index}`, {
          created_at: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
          experienced: `${index} ${'word '.repeat(300_000)}`,
        }),
      )
      await stores.handoffs.insert(handoffs)
      const first = await stores.handoffs.list(id, { limit: 500 })
      expect(first.items.length).toBeGreaterThanOrEqual(1)
      expect(first.items.length).toBeLessThan(6)
      expect(first.next_cursor).not.toBeNull()
      const seen = first.items.map((item) => item.handoff_id)
      let cursor = first.next_cursor ?? undefined
      while (cursor) {
        const page = await stores.handoffs.list(id, { limit: 500, cursor })
        expect(page.items.length).toBeGreaterThanOrEqual(1)
        seen.push(...page.items.map((item) => item.handoff_id))
        cursor = page.next_cursor ?? undefined
      }
      expect(seen).toEqual(handoffs.map((item) => item.handoff_id).reverse())
    })

    it('finds the handoffs whose age outgrew their level and applies levels only from the expected one', async () => {
      const id = await tenant()
      const at = (days: number) => new Date(Date.UTC(2026, 6, 1) - days * 86_400_000).toISOString()
      await stores.handoffs.insert([
        sampleHandoff(id, `${id}-fresh`, { created_at: at(10) }),
        sampleHandoff(id, `${id}-old`, { created_at: at(40) }),
        sampleHandoff(id, `${id}-done`, {
          created_at: at(40),
          compression_level: 'summary',
          summary: 's',
          summary_tokens: 1,
        }),
        sampleHandoff(id, `${id}-older`, {
          created_at: at(100),
          compression_level: 'summary',
          summary: 's',
          summary_tokens: 1,
        }),
        // Past the integration age at its rest level: found only once a principle took it in.
        sampleHandoff(id, `${id}-resting`, {
          created_at: at(200),
          compression_level: 'quick_ref',
          summary: 's',
          summary_tokens: 1,
          quick_ref: 'q',
          quick_ref_tokens: 1,
        }),
      ])
      const cutoffs = { summary: at(30), quick_ref: at(90), integrated: at(180) }
      const budgets = { summary: 10, quick_ref: 5 }
      const found = await stores.handoffs.findCompressible(id, {
        cutoffs,
        budgets,
        afterId: null,
        limit: 10,
      })
      expect(found.map((handoff) => handoff.handoff_id)).toEqual([`${id}-old`, `${id}-older`])
      const paged = await stores.handoffs.findCompressible(id, {
        cutoffs,
        budgets,
        afterId: `${id}-old`,
        limit: 10,
      })
      expect(paged.map((handoff) => handoff.handoff_id)).toEqual([`${id}-older`])
      await stores.handoffs.markIntegrated(id, [`${id}-resting`], 'principle-1')
      const withResting = await stores.handoffs.findCompressible(id, {
        cutoffs,
        budgets,
        afterId: null,
        limit: 10,
      })
      expect(withResting.map((handoff) => handoff.handoff_id)).toEqual([
        `${id}-old`,
        `${id}-older`,
        `${id}-resting`,
      ])

      const changed = await stores.handoffs.applyCompression(id, [
        {
          handoff_id: `${id}-old`,
          from: 'full',
          to: 'summary',
          summary: { text: 'short', sources: [`${id}-old#experienced`], tokens: 1 },
          quick_ref: null,
          consolidated_at: '2026-07-01T00:00:00.000Z',
        },
        {
          // Stale: the handoff is at `summary`, not `full`; nothing may change.
          handoff_id: `${id}-older`,
          from: 'full',
          to: 'quick_ref',
          summary: null,
          quick_ref: { text: 'q', sources: [], tokens: 1 },
          consolidated_at: '2026-07-01T00:00:00.000Z',
        },
      ])
      expect(changed).toEqual([`${id}-old`])
      const old = await stores.handoffs.get(id, `${id}-old`)
      expect(old).toMatchObject({
        compression_level: 'summary',
        summary: 'short',
        summary_sources: [`${id}-old#experienced`],
        summary_tokens: 1,
        experienced: `Worked through ${id}-old.`,
        consolidated_at: '2026-07-01T00:00:00.000Z',
      })
      expect((await stores.handoffs.get(id, `${id}-older`))?.quick_ref).toBeNull()
      const again = await stores.handoffs.findCompressible(id, {
        cutoffs,
        budgets,
        afterId: null,
        limit: 10,
      })
      expect(again.map((handoff) => handoff.handoff_id)).toEqual([`${id}-older`, `${id}-resting`])

      const counts = await stores.handoffs.levelCounts(id)
      expect(counts).toEqual([
        { level: 'full', count: 1, tokens: 20 },
        { level: 'quick_ref', count: 1, tokens: 1 },
        { level: 'summary', count: 3, tokens: 3 },
      ])
    })

    it('lists unintegrated becoming statements and links them to a principle', async () => {
      const id = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(id, `${id}-b1`, { becoming: 'More patient.' }),
        sampleHandoff(id, `${id}-b2`, { becoming: '   ' }),
        sampleHandoff(id, `${id}-b3`, { becoming: 'More careful.' }),
      ])
      expect(
        await stores.handoffs.findUnintegratedBecoming(id, { limit: 10, afterId: null }),
      ).toEqual([
        { handoff_id: `${id}-b1`, becoming: 'More patient.' },
        { handoff_id: `${id}-b3`, becoming: 'More careful.' },
      ])
      expect(await stores.handoffs.countBecoming(id)).toBe(2)
      await stores.handoffs.markIntegrated(id, [`${id}-b1`], 'dp_1')
      // Integrated statements still count: the seed's minimum is the tenant's statements.
      expect(await stores.handoffs.countBecoming(id)).toBe(2)
      expect((await stores.handoffs.get(id, `${id}-b1`))?.integrated_into).toBe('dp_1')
      expect(
        await stores.handoffs.findUnintegratedBecoming(id, { limit: 10, afterId: null }),
      ).toHaveLength(1)
    })
  })

  describe('decisions', () => {
    it('archives old plain decisions only, keeps them readable, and unions principle sources', async () => {
      const id = await tenant()
      await stores.decisions.insert(sampleDecision(id, `${id}-d-old`))
      await stores.decisions.insert(
        sampleDecision(id, `${id}-d-new`, { created_at: '2026-06-30T00:00:00.000Z' }),
      )
      await stores.decisions.insert(
        sampleDecision(id, `${id}-p`, {
          kind: 'principle',
          scope: 'global',
          sources: ['h1', 'h2'],
        }),
      )
      const archived = await stores.decisions.archiveOlderThan(
        id,
        '2026-05-01T00:00:00.000Z',
        '2026-07-01T00:00:00.000Z',
      )
      expect(archived.map((decision) => decision.decision_id)).toEqual([`${id}-d-old`])
      expect(await stores.decisions.get(id, `${id}-d-old`)).toMatchObject({
        status: 'superseded',
        superseded_at: '2026-07-01T00:00:00.000Z',
      })
      const active = await stores.decisions.list(id, { limit: 10, status: 'active' })
      expect(active.items.map((decision) => decision.decision_id).sort()).toEqual(
        [`${id}-d-new`, `${id}-p`].sort(),
      )
      await stores.decisions.addSources(
        id,
        `${id}-p`,
        ['h2', 'h3', 'h3', 'h0'],
        '2026-07-02T00:00:00Z',
      )
      const principles = await stores.decisions.activePrinciples(id)
      expect(principles.map((principle) => principle.sources)).toEqual([['h1', 'h2', 'h3', 'h0']])
      expect(await stores.decisions.get('default', `${id}-p`)).toBeNull()
    })
  })

  describe('jobs', () => {
    /** Claim options for one job of tenant `id`. */
    const only = (id: string, jobId: string, timeoutSeconds = 60, maxFailures = 3) => ({
      timeoutSeconds,
      maxFailures,
      job: { tenant_id: id, job_id: jobId },
    })
    const key = (id: string, jobId: string) => ({ tenant_id: id, job_id: jobId })
    const delta = (items: number, tokens: number) => ({
      items_processed: items,
      items_affected: items,
      tokens_saved: tokens,
    })
    const RETRY = { maxFailures: 3, backoffSeconds: 60 }

    it('moves pending → running → completed, and only the holder may report', async () => {
      const id = await tenant()
      await stores.jobs.enqueue(sampleJob(id, `${id}-j1`))
      const claimed = await stores.jobs.claim('worker-a', only(id, `${id}-j1`))
      expect(claimed).toMatchObject({ status: 'running', worker_id: 'worker-a', attempts: 1 })
      expect(await stores.jobs.claim('worker-b', only(id, `${id}-j1`))).toBeNull()
      expect(await stores.jobs.heartbeat(key(id, `${id}-j1`), 'worker-b')).toBe(false)
      expect(await stores.jobs.heartbeat(key(id, `${id}-j1`), 'worker-a')).toBe(true)
      expect(await stores.jobs.addProgress(key(id, `${id}-j1`), 'worker-b', delta(9, 9))).toBe(
        false,
      )
      expect(await stores.jobs.addProgress(key(id, `${id}-j1`), 'worker-a', delta(5, 100))).toBe(
        true,
      )
      expect(await stores.jobs.addProgress(key(id, `${id}-j1`), 'worker-a', delta(2, 20))).toBe(
        true,
      )
      expect(await stores.jobs.complete(key(id, `${id}-j1`), 'worker-a', { batch: 1 })).toBe(true)
      const done = await stores.jobs.get(id, `${id}-j1`)
      expect(done).toMatchObject({
        status: 'completed',
        items_processed: 7,
        items_affected: 7,
        tokens_saved: 120,
        metadata: { batch: 1 },
      })
      expect(done?.completed_at).not.toBeNull()
      expect(await stores.jobs.complete(key(id, `${id}-j1`), 'worker-a', {})).toBe(false)
    })

    it('takes over a running job whose worker stopped reporting: counts kept, first start kept, a failure noted', async () => {
      const id = await tenant()
      await stores.jobs.enqueue(sampleJob(id, `${id}-j2`))
      const first = await stores.jobs.claim('dead', only(id, `${id}-j2`))
      await stores.jobs.addProgress(key(id, `${id}-j2`), 'dead', delta(4, 40))
      expect(await stores.jobs.claim('alive', only(id, `${id}-j2`))).toBeNull()
      await new Promise((resolve) => setTimeout(resolve, 20))
      const taken = await stores.jobs.claim('alive', only(id, `${id}-j2`, 0.01))
      expect(taken).toMatchObject({
        worker_id: 'alive',
        attempts: 2,
        failures: 1,
        status: 'running',
        started_at: first?.started_at,
        items_processed: 4,
        tokens_saved: 40,
      })
      expect(taken?.error_message).toContain('worker dead stopped reporting')
      expect(await stores.jobs.complete(key(id, `${id}-j2`), 'dead', {})).toBe(false)
      expect(await stores.jobs.addProgress(key(id, `${id}-j2`), 'dead', delta(1, 1))).toBe(false)
      await stores.jobs.addProgress(key(id, `${id}-j2`), 'alive', delta(6, 60))
      expect(await stores.jobs.complete(key(id, `${id}-j2`), 'alive', {})).toBe(true)
      expect(await stores.jobs.get(id, `${id}-j2`)).toMatchObject({
        status: 'completed',
        items_processed: 10,
        tokens_saved: 100,
      })
    })

    it('retries a failed job after its backoff, and dead-letters it at the limit', async () => {
      const id = await tenant()
      await stores.jobs.enqueue(sampleJob(id, `${id}-j4`))
      await stores.jobs.claim('w', only(id, `${id}-j4`))
      expect(await stores.jobs.fail(key(id, `${id}-j4`), 'other', 'boom', RETRY)).toBeNull()
      expect(await stores.jobs.fail(key(id, `${id}-j4`), 'w', 'boom', RETRY)).toBe('failed')
      const failed = await stores.jobs.get(id, `${id}-j4`)
      expect(failed).toMatchObject({ status: 'failed', failures: 1, error_message: 'boom' })
      // Not before its backoff: 60 s after the failure.
      const wait = Date.parse(failed?.run_after ?? '') - Date.parse(failed?.completed_at ?? '')
      expect(wait).toBeGreaterThanOrEqual(59_000)
      expect(wait).toBeLessThanOrEqual(61_000)
      expect(await stores.jobs.claim('w', only(id, `${id}-j4`))).toBeNull()
      // No wait: retried at once, then dead after the third failure.
      const now = { maxFailures: 3, backoffSeconds: 0 }
      await stores.jobs.enqueue(sampleJob(id, `${id}-j5`))
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const claimed = await stores.jobs.claim('w', only(id, `${id}-j5`))
        expect(claimed).toMatchObject({ attempts: attempt, failures: attempt - 1 })
        const as = await stores.jobs.fail(key(id, `${id}-j5`), 'w', `boom ${attempt}`, now)
        expect(as).toBe(attempt < 3 ? 'failed' : 'dead')
      }
      expect(await stores.jobs.claim('w', only(id, `${id}-j5`))).toBeNull()
      expect(await stores.jobs.get(id, `${id}-j5`)).toMatchObject({
        status: 'dead',
        failures: 3,
        attempts: 3,
        error_message: 'boom 3',
        run_after: null,
      })
    })

    it('dead-letters a job whose workers keep dying, instead of retrying it forever', async () => {
      const id = await tenant()
      await stores.jobs.enqueue(sampleJob(id, `${id}-j6`))
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        expect(await stores.jobs.claim(`w${attempt}`, only(id, `${id}-j6`, 0.01, 2))).toMatchObject(
          { attempts: attempt, failures: attempt - 1 },
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(await stores.jobs.claim('w3', only(id, `${id}-j6`, 0.01, 2))).toBeNull()
      const dead = await stores.jobs.get(id, `${id}-j6`)
      expect(dead).toMatchObject({ status: 'dead', failures: 2, worker_id: null })
      expect(dead?.error_message).toContain('dead-lettered after 2 failed attempts')
    })

    it('releases a job back to pending with its progress', async () => {
      const id = await tenant()
      await stores.jobs.enqueue(sampleJob(id, `${id}-j3`))
      await stores.jobs.claim('w', only(id, `${id}-j3`))
      await stores.jobs.addProgress(key(id, `${id}-j3`), 'w', delta(2, 5))
      expect(await stores.jobs.release(key(id, `${id}-j3`), 'w')).toBe(true)
      expect(await stores.jobs.get(id, `${id}-j3`)).toMatchObject({
        status: 'pending',
        worker_id: null,
        items_processed: 2,
        failures: 0,
      })
      expect(await stores.jobs.claim('w2', only(id, `${id}-j3`))).toMatchObject({
        attempts: 2,
        failures: 0,
        items_processed: 2,
      })
    })

    it('adds each scheduled slot once however often it is enqueued, and lists by status', async () => {
      const id = await tenant()
      const slot = '2026-02-01T02:00:00.000Z'
      const first = await stores.jobs.enqueueScheduled([
        sampleJob(id, `${id}-s1`, { scheduled_for: slot }),
        sampleJob(id, `${id}-s2`, { scheduled_for: slot, job_type: 'decision_archival' }),
      ])
      const second = await stores.jobs.enqueueScheduled([
        sampleJob(id, `${id}-s3`, { scheduled_for: slot }),
      ])
      expect(first.map((job) => job.job_id)).toEqual([`${id}-s1`, `${id}-s2`])
      expect(second).toEqual([])
      // Manual runs have no slot and never collide.
      await stores.jobs.enqueue(sampleJob(id, `${id}-m1`))
      await stores.jobs.enqueue(sampleJob(id, `${id}-m2`))
      expect(await stores.jobs.list(id, { limit: 10 })).toHaveLength(4)
      await stores.jobs.claim('w', only(id, `${id}-m1`))
      expect(
        (await stores.jobs.list(id, { limit: 10, status: 'running' })).map((job) => job.job_id),
      ).toEqual([`${id}-m1`])
      expect(await stores.jobs.get('default', `${id}-m1`)).toBeNull()
    })
  })

  describe('stats', () => {
    it('keeps one row per tenant, day and type, adding measured deltas', async () => {
      const id = await tenant()
      const delta = { before_count: 2, before_tokens: 400, after_count: 2, after_tokens: 100 }
      await stores.stats.add(id, '2026-02-16', 'handoff_compression', delta)
      await stores.stats.add(id, '2026-02-16', 'handoff_compression', delta)
      await stores.stats.add(id, '2026-02-17', 'decision_archival', {
        before_count: 1,
        before_tokens: 50,
        after_count: 0,
        after_tokens: 0,
      })
      expect(await stores.stats.list(id, { limit: 10 })).toEqual([
        {
          stat_date: '2026-02-17',
          compression_type: 'decision_archival',
          before_count: 1,
          before_tokens: 50,
          after_count: 0,
          after_tokens: 0,
          tokens_saved: 50,
          percentage_saved: 100,
        },
        {
          stat_date: '2026-02-16',
          compression_type: 'handoff_compression',
          before_count: 4,
          before_tokens: 800,
          after_count: 4,
          after_tokens: 200,
          tokens_saved: 600,
          percentage_saved: 75,
        },
      ])
    })
  })

  describe('transactions', () => {
    it('commits all or nothing', async () => {
      const id = await tenant()
      await expect(
        stores.transaction(async (inside) => {
          await inside.handoffs.insert([sampleHandoff(id, `${id}-tx`)])
          await inside.stats.add(id, '2026-02-16', 'handoff_compression', {
            before_count: 1,
            before_tokens: 1,
            after_count: 1,
            after_tokens: 1,
          })
          throw new Error('abort')
        }),
      ).rejects.toThrow('abort')
      expect(await stores.handoffs.get(id, `${id}-tx`)).toBeNull()
      expect(await stores.stats.list(id, { limit: 10 })).toEqual([])
      await stores.transaction((inside) => inside.handoffs.insert([sampleHandoff(id, `${id}-tx`)]))
      expect(await stores.handoffs.get(id, `${id}-tx`)).not.toBeNull()
    })
  })
}
