/**
 * Each consolidation job on both databases: compression by age (every missing level made, original
 * text kept, sources cited, tokens measured, stats exact, rerun idempotent), identity consolidation
 * (themes by meaning, no duplicate principle on rerun), decision archival, stopping mid-job, and
 * scheduled runs enqueued once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createExtractiveLanguageModel } from '../../src/engine/adapters/llm/extractive-language-model.ts'
import { countTokens } from '../../src/engine/core/tokens.ts'
import { createHandoffs } from '../../src/service/app/create-handoffs.ts'
import { enqueueScheduledRun } from '../../src/service/app/enqueue-scheduled-run.ts'
import { runConsolidation } from '../../src/service/app/run-consolidation.ts'
import { workJobs } from '../../src/service/app/work-jobs.ts'
import { sampleDecision } from '../../src/service/ports/service-stores.contract.ts'
import {
  ENGINES,
  engineAvailable,
  openTestDatabase,
  type TestDatabase,
} from '../support/service-database.ts'
import {
  daysAgo,
  NOW,
  PATIENCE,
  serviceDependencies,
  TESTS_FIRST,
  UNRELATED,
} from '../support/service-fixtures.ts'

const TOPICS = ['deploy', 'database', 'cache', 'login', 'search', 'billing', 'email', 'upload']

/** A handoff of roughly 1,500 tokens whose sentences differ, so a summary must choose. */
function longExperience(seed: number): string {
  const lines: string[] = []
  for (let index = 0; index < 60; index += 1) {
    const topic = TOPICS[(seed + index) % TOPICS.length]
    lines.push(
      `On step ${index + 1} the ${topic} service returned error ${400 + ((seed * 7 + index) % 100)} and we fixed it by changing the ${topic} timeout to ${index * 3 + seed} seconds.`,
    )
  }
  return lines.join(' ')
}

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`consolidation jobs on ${engine}`, () => {
    let test: TestDatabase
    let tenantCount = 0
    beforeAll(async () => {
      test = await openTestDatabase(engine)
    })
    afterAll(async () => {
      await test?.dispose()
    })

    async function tenant(config: unknown = {}) {
      tenantCount += 1
      const id = `jobs-${tenantCount}`
      await test.stores.tenants.create({ tenant_id: id, name: id, created_at: NOW.toISOString() })
      return { id, dependencies: serviceDependencies(test.stores, config, id.replace('-', '')) }
    }

    it('compresses by age: every level a handoff needs, originals kept, sources cited, tokens measured', async () => {
      const { id, dependencies } = await tenant()
      const ages = { fresh: 10, month: 40, late: 120, old: 200 }
      const created = await createHandoffs(
        dependencies,
        id,
        Object.entries(ages).map(([name, days], index) => ({
          handoff_id: `${id}-${name}`,
          created_at: daysAgo(days),
          experienced: longExperience(index),
          learned: `Lesson ${name}: check the timeout before blaming the network.`,
          becoming: 'More careful with timeouts.',
        })),
      )
      for (const handoff of created) expect(handoff.full_tokens).toBeGreaterThan(1000)

      const response = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
      })
      expect(response).toMatchObject({
        success: true,
        tenant_id: id,
        job_type: 'handoff_compression',
      })
      const [result] = response.results
      expect(result).toMatchObject({ items_processed: 3, items_affected: 3 })
      expect(result?.details).toMatchObject({ summary_threshold: 30, quick_ref_threshold: 90 })

      const get = async (name: string) => {
        const handoff = await test.stores.handoffs.get(id, `${id}-${name}`)
        if (!handoff) throw new Error(`missing ${name}`)
        return handoff
      }
      const fresh = await get('fresh')
      expect(fresh).toMatchObject({ compression_level: 'full', summary: null, quick_ref: null })
      const month = await get('month')
      expect(month.compression_level).toBe('summary')
      expect(month.quick_ref).toBeNull()
      // First seen at 120 days: both levels made in one step.
      const late = await get('late')
      expect(late.compression_level).toBe('quick_ref')
      // Past the integration age, but no principle took its "becoming" in: it rests at quick_ref.
      const old = await get('old')
      expect(old.compression_level).toBe('quick_ref')
      expect(old.integrated_into).toBeNull()
      for (const handoff of [month, late, old]) {
        const original = created.find((item) => item.handoff_id === handoff.handoff_id)
        expect(handoff.experienced).toBe(original?.experienced)
        expect(handoff.learned).toBe(original?.learned)
        expect(handoff.summary_tokens).toBe(countTokens(handoff.summary ?? ''))
        expect(handoff.summary_tokens).toBeLessThanOrEqual(500)
        expect(handoff.summary_tokens).toBeGreaterThan(300)
        expect(handoff.summary_sources.length).toBeGreaterThan(0)
        for (const source of handoff.summary_sources)
          expect(source.startsWith(`${handoff.handoff_id}#`)).toBe(true)
        expect(handoff.consolidated_at).toBe(NOW.toISOString())
      }
      for (const handoff of [late, old]) {
        expect(handoff.quick_ref_tokens).toBe(countTokens(handoff.quick_ref ?? ''))
        expect(handoff.quick_ref_tokens).toBeLessThanOrEqual(100)
        // Not trivially short; a reference does not fill its budget with clauses worth nothing
        // (these repeat one pattern, so several add nothing new).
        expect(handoff.quick_ref_tokens).toBeGreaterThan(30)
        expect(handoff.quick_ref).toContain(handoff.created_at.slice(0, 10))
      }

      const expectedBefore = month.full_tokens + late.full_tokens + old.full_tokens
      const expectedAfter =
        (month.summary_tokens ?? 0) + (late.quick_ref_tokens ?? 0) + (old.quick_ref_tokens ?? 0)
      expect(result?.tokens_saved).toBe(expectedBefore - expectedAfter)
      const stats = await dependencies.stores.stats.list(id, { limit: 10 })
      expect(stats).toEqual([
        {
          stat_date: NOW.toISOString().slice(0, 10),
          compression_type: 'handoff_compression',
          before_count: 3,
          before_tokens: expectedBefore,
          after_count: 3,
          after_tokens: expectedAfter,
          tokens_saved: expectedBefore - expectedAfter,
          percentage_saved:
            Math.round((10_000 * (expectedBefore - expectedAfter)) / expectedBefore) / 100,
        },
      ])

      // A rerun finds nothing to do and counts nothing.
      const again = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
      })
      expect(again.results[0]).toMatchObject({
        items_processed: 0,
        items_affected: 0,
        tokens_saved: 0,
      })
      expect(await dependencies.stores.stats.list(id, { limit: 10 })).toEqual(stats)

      // Time passes: the summary-level handoff gains a quick ref, its summary kept as it was.
      const later = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
        asOf: new Date(NOW.getTime() + 60 * 86_400_000),
      })
      expect(later.results[0]).toMatchObject({ items_affected: 2 })
      const monthLater = await get('month')
      expect(monthLater.compression_level).toBe('quick_ref')
      expect(monthLater.summary).toBe(month.summary)
      expect((await get('fresh')).compression_level).toBe('summary')
    })

    it('makes principles from themes by meaning, cites them, and never duplicates on rerun', async () => {
      const { id, dependencies } = await tenant()
      const statements = [...PATIENCE.slice(0, 11), ...TESTS_FIRST, ...UNRELATED]
      await createHandoffs(
        dependencies,
        id,
        statements.map((becoming, index) => ({
          handoff_id: `${id}-b${String(index).padStart(2, '0')}`,
          created_at: daysAgo(5),
          becoming,
        })),
      )
      const first = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'identity_consolidation',
        workerId: 'test',
      })
      expect(first.results[0]?.details).toMatchObject({ principles_created: 2 })
      const principles = await dependencies.stores.decisions.activePrinciples(id)
      expect(principles).toHaveLength(2)
      for (const principle of principles) {
        expect(principle).toMatchObject({ kind: 'principle', scope: 'global', status: 'active' })
        expect(principle.sources.length).toBeGreaterThanOrEqual(10)
        expect(principle.rationale).toContain('"becoming" statements')
      }
      const patienceIds = statements
        .map((text, index) =>
          PATIENCE.includes(text) ? `${id}-b${String(index).padStart(2, '0')}` : null,
        )
        .filter((value) => value !== null)
      const patiencePrinciple = principles.find((principle) =>
        principle.sources.includes(patienceIds[0] ?? ''),
      )
      expect(patiencePrinciple?.sources.every((source) => patienceIds.includes(source))).toBe(true)
      // The unrelated statements are in no principle and stay unintegrated.
      const unrelated = await dependencies.stores.handoffs.findUnintegratedBecoming(id, {
        limit: 100,
        afterId: null,
      })
      expect(unrelated.map((item) => item.becoming).sort()).toEqual(
        expect.arrayContaining([...UNRELATED].sort()),
      )

      const rerun = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'identity_consolidation',
        workerId: 'test',
      })
      expect(rerun.results[0]?.details).toMatchObject({ principles_created: 0 })
      expect(await dependencies.stores.decisions.activePrinciples(id)).toHaveLength(2)

      // A new statement on an existing theme joins its principle instead of starting another.
      await createHandoffs(dependencies, id, [
        { handoff_id: `${id}-late`, created_at: daysAgo(1), becoming: PATIENCE[11] ?? '' },
      ])
      await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'identity_consolidation',
        workerId: 'test',
      })
      const after = await dependencies.stores.decisions.activePrinciples(id)
      expect(after).toHaveLength(2)
      expect(
        after.find((principle) => principle.decision_id === patiencePrinciple?.decision_id)
          ?.sources,
      ).toContain(`${id}-late`)
      expect((await dependencies.stores.handoffs.get(id, `${id}-late`))?.integrated_into).toBe(
        patiencePrinciple?.decision_id,
      )
      const [stat] = await dependencies.stores.stats.list(id, { limit: 10 })
      expect(stat).toMatchObject({
        compression_type: 'identity_consolidation',
        before_count: 24,
        after_count: 2,
      })
    })

    it('makes a level only when it is shorter than the text below it, and never fetches that handoff again', async () => {
      const { id, dependencies } = await tenant()
      const created = await createHandoffs(dependencies, id, [
        // ~20 tokens: its own summary and quick ref.
        { handoff_id: `${id}-tiny`, created_at: daysAgo(120), learned: 'Check the timeout first.' },
        // ~300 tokens: its own summary, but longer than a quick ref.
        {
          handoff_id: `${id}-medium`,
          created_at: daysAgo(120),
          experienced: longExperience(1).split('. ').slice(0, 8).join('. '),
        },
        { handoff_id: `${id}-month`, created_at: daysAgo(40), learned: 'Short lesson.' },
      ])
      const tokens = Object.fromEntries(created.map((handoff) => [handoff.handoff_id, handoff]))
      expect(tokens[`${id}-medium`]?.full_tokens).toBeGreaterThan(200)
      expect(tokens[`${id}-medium`]?.full_tokens).toBeLessThan(500)
      const first = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
      })
      expect(first.results[0]).toMatchObject({ items_processed: 3, items_affected: 3 })
      const get = async (name: string) => {
        const handoff = await test.stores.handoffs.get(id, `${id}-${name}`)
        if (!handoff) throw new Error(`missing ${name}`)
        return handoff
      }
      expect(await get('tiny')).toMatchObject({
        compression_level: 'quick_ref',
        summary: null,
        quick_ref: null,
      })
      const medium = await get('medium')
      expect(medium).toMatchObject({ compression_level: 'quick_ref', summary: null })
      expect(medium.quick_ref_tokens).toBeLessThan(medium.full_tokens)
      expect(medium.quick_ref_tokens).toBeLessThanOrEqual(100)
      expect(await get('month')).toMatchObject({ compression_level: 'summary', summary: null })
      // Nothing saved where nothing was made shorter; the quick ref's saving counted.
      expect(first.results[0]?.tokens_saved).toBe(
        medium.full_tokens - (medium.quick_ref_tokens ?? 0),
      )
      const again = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
      })
      expect(again.results[0]).toMatchObject({ items_processed: 0, items_affected: 0 })
    })

    it('integrates a handoff only once its "becoming" is folded into a principle, never by age alone', async () => {
      const { id, dependencies } = await tenant()
      await createHandoffs(dependencies, id, [
        ...TESTS_FIRST.map((becoming, index) => ({
          handoff_id: `${id}-t${String(index).padStart(2, '0')}`,
          created_at: daysAgo(200),
          experienced: `Session ${index}: wrote the failing test, then changed the parser.`,
          becoming,
        })),
        {
          handoff_id: `${id}-alone`,
          created_at: daysAgo(200),
          experienced: 'Moved the staging database to a bigger disk.',
          becoming: UNRELATED[0] ?? '',
        },
        { handoff_id: `${id}-silent`, created_at: daysAgo(200), experienced: 'No becoming here.' },
      ])
      // Compression alone: old enough to integrate, but nothing took them in.
      await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'handoff_compression',
        workerId: 'test',
      })
      const levels = async () =>
        Object.fromEntries(
          (await dependencies.stores.handoffs.list(id, { limit: 100 })).items.map((handoff) => [
            handoff.handoff_id,
            handoff.compression_level,
          ]),
        )
      expect(new Set(Object.values(await levels()))).toEqual(new Set(['quick_ref']))
      // Identity then compression (the seed's order in `all`): the folded ones are integrated.
      const all = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'all',
        workerId: 'test',
      })
      expect(all.results[0]?.details).toMatchObject({ principles_created: 1 })
      const [principle] = await dependencies.stores.decisions.activePrinciples(id)
      const after = await levels()
      for (const source of principle?.sources ?? []) expect(after[source]).toBe('integrated')
      expect(principle?.sources.length).toBeGreaterThanOrEqual(10)
      expect(after[`${id}-alone`]).toBe('quick_ref')
      expect(after[`${id}-silent`]).toBe('quick_ref')
      const integrated = await dependencies.stores.handoffs.get(id, principle?.sources[0] ?? '')
      expect(integrated?.integrated_into).toBe(principle?.decision_id)
    })

    it('archives decisions older than 60 days, keeps principles and newer ones active', async () => {
      const { id, dependencies } = await tenant()
      await test.stores.decisions.insert(
        sampleDecision(id, `${id}-old`, { created_at: daysAgo(61) }),
      )
      await test.stores.decisions.insert(
        sampleDecision(id, `${id}-new`, { created_at: daysAgo(59) }),
      )
      await test.stores.decisions.insert(
        sampleDecision(id, `${id}-principle`, {
          created_at: daysAgo(300),
          kind: 'principle',
          scope: 'global',
        }),
      )
      const response = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'decision_archival',
        workerId: 'test',
      })
      expect(response.results[0]).toMatchObject({ items_affected: 1 })
      expect(response.results[0]?.tokens_saved).toBe(countTokens(`Decision ${id}-old\n`))
      const superseded = await test.stores.decisions.list(id, { limit: 10, status: 'superseded' })
      expect(superseded.items.map((decision) => decision.decision_id)).toEqual([`${id}-old`])
      const rerun = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'decision_archival',
        workerId: 'test',
      })
      expect(rerun.results[0]).toMatchObject({ items_affected: 0 })
    })

    it("runs 'all' in the seed's order and records each job completed", async () => {
      const { id, dependencies } = await tenant()
      const response = await runConsolidation(dependencies, {
        tenantId: id,
        jobType: 'all',
        workerId: 'test',
      })
      expect(response.results.map((result) => result.job_type)).toEqual([
        'identity_consolidation',
        'handoff_compression',
        'decision_archival',
      ])
      const jobs = await test.stores.jobs.list(id, { limit: 10, status: 'completed' })
      expect(jobs).toHaveLength(3)
      for (const job of jobs) expect(job).toMatchObject({ attempts: 1, worker_id: 'test' })
      await expect(
        runConsolidation(dependencies, { tenantId: 'nobody', jobType: 'all', workerId: 'test' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    })

    it('stops between batches on the signal, releases the job, and the next worker finishes it exactly', async () => {
      const { id, dependencies } = await tenant({ compression_batch_size: 5 })
      await createHandoffs(
        dependencies,
        id,
        Array.from({ length: 20 }, (_, index) => ({
          handoff_id: `${id}-${String(index).padStart(2, '0')}`,
          created_at: daysAgo(45),
          experienced: longExperience(index),
        })),
      )
      await test.stores.jobs.enqueue({
        job_id: `${id}-job`,
        tenant_id: id,
        job_type: 'handoff_compression',
        scheduled_for: null,
        as_of: NOW.toISOString(),
        metadata: {},
        created_at: NOW.toISOString(),
      })
      const stop = new AbortController()
      const ends: string[] = []
      await workJobs(dependencies, {
        workerId: 'first',
        signal: stop.signal,
        untilEmpty: true,
        onProgress: (_job, tally) => {
          if (tally.items_processed >= 10) stop.abort()
        },
        onJobEnd: (end) => ends.push(end.status),
      })
      expect(ends).toEqual(['released'])
      const released = await test.stores.jobs.get(id, `${id}-job`)
      expect(released).toMatchObject({ status: 'pending', worker_id: null, items_processed: 10 })
      await workJobs(dependencies, {
        workerId: 'second',
        signal: new AbortController().signal,
        untilEmpty: true,
      })
      expect(await test.stores.jobs.get(id, `${id}-job`)).toMatchObject({
        status: 'completed',
        attempts: 2,
        worker_id: 'second',
      })
      const [stat] = await test.stores.stats.list(id, { limit: 1 })
      expect(stat).toMatchObject({ before_count: 20, after_count: 20 })
      const levels = await test.stores.handoffs.levelCounts(id)
      expect(levels).toEqual([{ level: 'summary', count: 20, tokens: stat?.after_tokens }])
    })

    it('on worker threads, makes exactly the levels and stats one thread makes', async () => {
      const made = []
      for (const threads of [1, 2]) {
        const { id, dependencies } = await tenant({ compression_batch_size: 7 })
        const model = createExtractiveLanguageModel({ threads })
        await createHandoffs(
          dependencies,
          id,
          Array.from({ length: 30 }, (_, index) => ({
            handoff_id: `${id}-h${String(index).padStart(2, '0')}`,
            created_at: daysAgo(35 + index * 6),
            experienced: longExperience(index),
            learned: `Lesson ${index}: check the timeout before blaming the network.`,
          })),
        )
        const response = await runConsolidation(
          { ...dependencies, model },
          { tenantId: id, jobType: 'handoff_compression', workerId: `threads-${threads}` },
        )
        expect(response.results[0]).toMatchObject({ items_processed: 30, items_affected: 30 })
        const { items } = await test.stores.handoffs.list(id, { limit: 100 })
        const [stat] = await test.stores.stats.list(id, { limit: 1 })
        made.push({
          levels: items.map((handoff) => [
            handoff.handoff_id.slice(id.length),
            handoff.compression_level,
            handoff.summary,
            handoff.summary_sources.map((source) => source.slice(id.length)),
            handoff.quick_ref,
            handoff.quick_ref_tokens,
          ]),
          tokens: [stat?.before_tokens, stat?.after_tokens],
        })
      }
      expect(made[1]).toEqual(made[0])
    })

    it('enqueues a scheduled run once per tenant and type, however many schedulers fire', async () => {
      const { dependencies } = await tenant()
      const slot = new Date('2026-07-05T03:00:00.000Z')
      const one = await enqueueScheduledRun(dependencies, 'weekly', slot)
      const two = await enqueueScheduledRun(
        serviceDependencies(test.stores, {}, 'other'),
        'weekly',
        slot,
      )
      const tenants = await test.stores.tenants.list()
      expect(one).toBe(tenants.length * 2)
      expect(two).toBe(0)
    })
  })
}
