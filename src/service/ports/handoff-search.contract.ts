/**
 * What `HandoffStore.search` must do on every adapter (the SQL adapter runs it on PGlite and on
 * PostgreSQL): find a tenant's handoffs by their words at every level, in any word form, never
 * another tenant's, and stay in step with every write: a create, a compression, a delete, a
 * tenant's delete. Any characters are words, never query syntax.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import { sampleHandoff } from './service-stores.contract.ts'
import type { ServiceStores } from './service-stores.ts'

let tenantCounter = 0

/** Registers the contract tests for the stores `make` gives (called once). */
export function testHandoffSearch(options: ContractOptions<ServiceStores>): void {
  describeContract('HandoffSearch', options, () => handoffSearchSuite(options.make))
}

function handoffSearchSuite(open: () => Promise<ServiceStores>): void {
  let stores: ServiceStores
  beforeAll(async () => {
    stores = await open()
  })

  async function tenant(): Promise<string> {
    tenantCounter += 1
    const id = `s${tenantCounter}-${Math.random().toString(36).slice(2, 8)}`
    await stores.tenants.create({ tenant_id: id, name: id, created_at: '2026-01-01T00:00:00.000Z' })
    return id
  }
  const ids = (handoffs: { handoff_id: string }[]) =>
    handoffs.map((handoff) => handoff.handoff_id).sort()

  describe('handoff search', () => {
    it('finds handoffs by their fields and turns, in any word form, best match first', async () => {
      const id = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(id, 'deploy', {
          experienced: 'Deployed the billing service to staging; the migrations ran twice.',
        }),
        sampleHandoff(id, 'chat', {
          experienced: null,
          learned: null,
          turns: [
            { id: 'D1:1', speaker: 'Caroline', text: 'I went to the support group yesterday.' },
            { id: 'D1:2', speaker: 'Melanie', text: 'How was it?' },
          ],
        }),
        sampleHandoff(id, 'other', { experienced: 'Painted the fence.' }),
      ])
      const search = (text: string) => stores.handoffs.search(id, { text, limit: 10 })
      expect(ids(await search('deploying migration'))).toEqual(['deploy'])
      expect(ids(await search('groups'))).toEqual(['chat'])
      // A turn's speaker is among its words.
      expect(ids(await search('caroline'))).toEqual(['chat'])
      const ranked = await search('billing staging fence')
      expect(ranked[0]?.handoff_id).toBe('deploy')
      expect(ids(ranked)).toEqual(['deploy', 'other'])
      // Every field of the handoff comes back, as get gives it.
      expect(ranked[0]).toEqual(await stores.handoffs.get(id, 'deploy'))
      expect(await search('kubernetes')).toEqual([])
      expect(await stores.handoffs.search(id, { text: 'staging', limit: 1 })).toHaveLength(1)
    })

    it("never finds another tenant's handoffs, even with the same id and words", async () => {
      const first = await tenant()
      const second = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(first, 'same', { experienced: 'The quarterly audit passed.' }),
        sampleHandoff(second, 'same', { experienced: 'The quarterly audit failed.' }),
        sampleHandoff(second, 'only-second', { experienced: 'Audit trail exported.' }),
      ])
      const found = await stores.handoffs.search(first, { text: 'audit', limit: 10 })
      expect(found.map((handoff) => [handoff.tenant_id, handoff.handoff_id])).toEqual([
        [first, 'same'],
      ])
      expect(found[0]?.experienced).toBe('The quarterly audit passed.')
    })

    it('follows compression, delete and the tenant delete, and keeps to a level', async () => {
      const id = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(id, 'h1', { experienced: 'Rewrote the parser in Rust over three days.' }),
        sampleHandoff(id, 'h2', { experienced: 'Rust toolchain pinned to 1.80.' }),
      ])
      const search = (text: string, level?: 'full' | 'summary' | 'quick_ref') =>
        stores.handoffs.search(id, { text, level, limit: 10 })
      expect(await search('parser', 'summary')).toEqual([])
      const changed = await stores.handoffs.applyCompression(id, [
        {
          handoff_id: 'h1',
          from: 'full',
          to: 'summary',
          summary: {
            text: 'Parser rewritten; benchmarks doubled.',
            sources: ['h1#experienced'],
            tokens: 6,
          },
          quick_ref: null,
          consolidated_at: '2026-02-01T00:00:00.000Z',
        },
      ])
      expect(changed).toEqual(['h1'])
      expect(ids(await search('benchmark', 'summary'))).toEqual(['h1'])
      expect(ids(await search('benchmark'))).toEqual(['h1'])
      expect(await search('benchmark', 'full')).toEqual([])
      expect(ids(await search('rust', 'full'))).toEqual(['h1', 'h2'])
      expect(await search('rust', 'quick_ref')).toEqual([])
      await stores.handoffs.delete(id, 'h2')
      expect(ids(await search('rust'))).toEqual(['h1'])
      expect(await stores.tenants.delete(id)).toBe(true)
      expect(await search('rust')).toEqual([])
    })

    it('finds handoffs before and after they are indexed in the background, and re-indexes a compressed one', async () => {
      const id = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(id, 'new', { experienced: 'Calibrated the spectrometer twice.' }),
      ])
      const found = async (text: string, level?: 'summary') =>
        ids(await stores.handoffs.search(id, { text, level, limit: 5 }))
      expect(await found('spectrometers')).toEqual(['new'])
      // Other tests' handoffs may be pending too: index until nothing is left.
      let indexed = 0
      for (let pass = await stores.handoffs.indexPending(50); pass > 0; ) {
        indexed += pass
        pass = await stores.handoffs.indexPending(50)
      }
      expect(indexed).toBeGreaterThanOrEqual(1)
      expect(await stores.handoffs.indexPending(50)).toBe(0)
      expect(await found('spectrometers')).toEqual(['new'])
      await stores.handoffs.applyCompression(id, [
        {
          handoff_id: 'new',
          from: 'full',
          to: 'summary',
          summary: { text: 'Spectrometer calibrated; drift gone.', sources: [], tokens: 5 },
          quick_ref: null,
          consolidated_at: '2026-02-01T00:00:00.000Z',
        },
      ])
      expect(await found('drift', 'summary')).toEqual(['new'])
      expect(await stores.handoffs.indexPending(50)).toBeGreaterThanOrEqual(1)
      expect(await found('drift', 'summary')).toEqual(['new'])
      expect(await found('calibrating')).toEqual(['new'])
    })

    it('takes any characters as words, never as query syntax', async () => {
      const id = await tenant()
      await stores.handoffs.insert([
        sampleHandoff(id, 'q', { experienced: "Fixed Caroline's C++ build: it's the -O2 flag." }),
      ])
      for (const text of [
        "'",
        "it's",
        '"unclosed',
        'a:b & | ! ( ) * ? <-> :* \\',
        'OR AND NOT',
        '\\\\ / < > { } [ ] ~ ^ $ % #',
        'the and of',
        '',
        '😀 ümlaut straße',
      ]) {
        await expect(
          stores.handoffs.search(id, { text, limit: 5 }),
          JSON.stringify(text),
        ).resolves.toBeInstanceOf(Array)
      }
      expect(await stores.handoffs.search(id, { text: 'the and of', limit: 5 })).toEqual([])
      expect(
        ids(await stores.handoffs.search(id, { text: "caroline's (flag)!", limit: 5 })),
      ).toEqual(['q'])
    })
  })
}
