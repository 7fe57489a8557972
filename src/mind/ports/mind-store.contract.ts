/** The behaviour every `MindStore` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import type { MindStore } from './mind-store.ts'

/** Registers the contract tests for stores made by `make` (each call: a fresh, empty creature). */
export function testMindStore(options: ContractOptions<MindStore>): void {
  const { make } = options
  describeContract('MindStore', options, () => {
    it('starts empty: no state, empty logs, missing documents', async () => {
      const store = await make()
      expect(await store.files.readState()).toBeNull()
      expect(await store.files.readLog('conversation')).toEqual([])
      expect(await store.files.readDocument('observations')).toBeNull()
    })

    it('appends log lines in order and reads them back one per line', async () => {
      const store = await make()
      await store.exclusive(async (files) => {
        await files.appendLog('conversation', ['{"a":1}', '{"a":2}'])
        await files.appendLog('conversation', ['{"a":3}'])
        await files.appendLog('dreams', [])
      })
      expect(await store.files.readLog('conversation')).toEqual(['{"a":1}', '{"a":2}', '{"a":3}'])
      expect(await store.files.countLines('conversation')).toBe(3)
      expect(await store.files.readLog('dreams')).toEqual([])
      expect(await store.files.countLines('dreams')).toBe(0)
      await store.exclusive((files) => files.appendLog('conversation', ['{"a":4}']))
      expect(await store.files.countLines('conversation')).toBe(4)
    })

    it('reads a slice of a log, in any order, and what was appended since', async () => {
      const store = await make()
      const line = (n: number) => `{"n":${n},"text":"ünïcode ${'x'.repeat(n % 7)}"}`
      await store.exclusive((files) =>
        files.appendLog(
          'conversation',
          Array.from({ length: 10 }, (_, n) => line(n)),
        ),
      )
      const slice = (start: number, count: number) =>
        store.files.readLogLines('conversation', start, count)
      expect(await slice(0, 3)).toEqual([line(0), line(1), line(2)])
      expect(await slice(3, 3)).toEqual([line(3), line(4), line(5)])
      expect(await slice(8, 5)).toEqual([line(8), line(9)])
      expect(await slice(1, 2)).toEqual([line(1), line(2)])
      expect(await slice(10, 2)).toEqual([])
      expect(await slice(2, 0)).toEqual([])
      expect(await store.files.readLogLines('dreams', 0, 5)).toEqual([])
      await store.exclusive((files) => files.appendLog('conversation', [line(10)]))
      expect(await slice(9, 5)).toEqual([line(9), line(10)])
    })

    it('replaces the state and documents whole, appends to documents', async () => {
      const store = await make()
      await store.exclusive(async (files) => {
        await files.writeState('{"version":1}')
        await files.writeDocument('observations', '# Observations\n')
        await files.appendDocument('observations', 'RED 09:00 x\n')
        await files.writeDocument('priorities', 'one')
        await files.writeDocument('priorities', 'two')
      })
      expect(JSON.parse((await store.files.readState()) ?? '')).toEqual({ version: 1 })
      expect(await store.files.readDocument('observations')).toBe('# Observations\nRED 09:00 x\n')
      expect(await store.files.readDocument('priorities')).toBe('two')
    })

    it('runs exclusive work one at a time and returns its value', async () => {
      const store = await make()
      const order: string[] = []
      const work = (label: string) =>
        store.exclusive(async (files) => {
          order.push(`${label} in`)
          const before = (await files.readLog('conversation')).length
          await new Promise((resolve) => setTimeout(resolve, 5))
          await files.appendLog('conversation', [JSON.stringify({ label, before })])
          order.push(`${label} out`)
          return label
        })
      expect(await Promise.all([work('a'), work('b'), work('c')])).toEqual(['a', 'b', 'c'])
      for (let index = 0; index < order.length; index += 2) {
        expect(order[index]?.replace(' in', '')).toBe(order[index + 1]?.replace(' out', ''))
      }
      const befores = (await store.files.readLog('conversation')).map(
        (line) => JSON.parse(line).before,
      )
      expect(befores).toEqual([0, 1, 2])
    })

    it('lets go after a failure inside exclusive', async () => {
      const store = await make()
      await expect(store.exclusive(async () => Promise.reject(new Error('boom')))).rejects.toThrow(
        'boom',
      )
      expect(await store.exclusive(async () => 'after')).toBe('after')
    })

    it('names its files as the default layout does', async () => {
      const store = await make()
      expect(store.fileName('conversation')).toBe('conversation.jsonl')
      expect(store.fileName('archive')).toBe('observations-archive.md')
    })
  })
}
