/** The behaviour every `UnitOfWork` adapter must show; each adapter's test runs this suite. */
import { expect, it } from 'vitest'
import type { BrainDocument, BrainFiles } from '../../engine/ports/brain-files.ts'
import {
  type ContractOptions,
  describeContract,
} from '../../engine/ports/describe-contract.contract.ts'
import { addBookmark } from '../core/ledger.ts'
import type { SleepStateStore } from './sleep-state-store.ts'
import type { Consolidation, UnitOfWork } from './unit-of-work.ts'

/** A fresh, empty brain's stores with the unit of work over them. */
export interface UnitOfWorkFixture {
  unitOfWork: UnitOfWork
  files: BrainFiles
  state: SleepStateStore
}

const MEMORY: BrainDocument = { kind: 'core', name: 'memory' }
const TASK: BrainDocument = { kind: 'task', slug: 'auth' }
const ARCHIVE: BrainDocument = { kind: 'archive', of: 'memory' }
const NOW = new Date('2026-03-01T12:00:00.000Z')

function consolidation(id: string, before: string | null): Consolidation {
  return {
    id,
    createdAt: NOW.toISOString(),
    documents: [
      { document: MEMORY, before, text: '# Memory\n- new fact\n' },
      { document: TASK, before: null, text: '# Auth\n' },
      { document: ARCHIVE, before: null, text: '# Archive\n' },
    ],
    ledger: {
      summary: 'Consolidated one bookmark',
      epoch: NOW.toISOString(),
      triggers: [{ when: 'touching auth', remind: 'tokens stay server-side', source: 'bm_1' }],
      consolidated: { sessions: [], bookmarks: ['bm_1'] },
      model: 'extractive',
      usage: { input_tokens: 3, output_tokens: 4 },
    },
  }
}

async function withBookmark(fixture: UnitOfWorkFixture): Promise<void> {
  await fixture.state.update((state) => ({
    state: addBookmark(state, {
      id: 'bm_1',
      message: 'tokens stay server-side',
      salience: 3,
      now: NOW,
    }),
    result: undefined,
  }))
  await fixture.files.write(MEMORY, '# Memory\n')
}

/** Registers the contract tests for fixtures made by `make` (fresh stores each call). */
export function testUnitOfWork(options: ContractOptions<UnitOfWorkFixture>): void {
  const { make } = options
  describeContract('UnitOfWork', options, () => {
    it('applies every document and the ledger change together', async () => {
      const fixture = await make()
      await withBookmark(fixture)
      const applied = await fixture.unitOfWork.commit(consolidation('run_1', '# Memory\n'))
      expect(applied.conflicts).toEqual([])
      expect(await fixture.files.read(MEMORY)).toBe('# Memory\n- new fact\n')
      expect(await fixture.files.read(TASK)).toBe('# Auth\n')
      expect(await fixture.files.read(ARCHIVE)).toBe('# Archive\n')
      const state = await fixture.state.read()
      expect(state.bookmarks).toEqual([])
      expect(state.last_sleep_run_id).toBe('run_1')
      expect(state.triggers.map((trigger) => trigger.remind)).toEqual(['tokens stay server-side'])
      const history = await fixture.state.readHistory()
      expect(history).toHaveLength(1)
      expect(history[0]).toMatchObject({ model: 'extractive', usage: { input_tokens: 3 } })
      expect(await fixture.unitOfWork.hasInterrupted()).toBe(false)
      expect(await fixture.unitOfWork.finishInterrupted()).toBeNull()
    })

    it('leaves a document edited after the plan as it is, names it, and applies the rest', async () => {
      const fixture = await make()
      await withBookmark(fixture)
      await fixture.files.write(MEMORY, '# Memory\n- edited by hand\n')
      const applied = await fixture.unitOfWork.commit(consolidation('run_1', '# Memory\n'))
      expect(applied.conflicts).toEqual(['core/2.memory.md'])
      expect(await fixture.files.read(MEMORY)).toBe('# Memory\n- edited by hand\n')
      expect(await fixture.files.read(TASK)).toBe('# Auth\n')
      expect((await fixture.state.read()).bookmarks).toEqual([])
    })

    it('changes the ledger once when the same consolidation is applied twice', async () => {
      const fixture = await make()
      await withBookmark(fixture)
      await fixture.unitOfWork.commit(consolidation('run_1', '# Memory\n'))
      const again = await fixture.unitOfWork.commit(consolidation('run_1', '# Memory\n'))
      expect(again.conflicts).toEqual([])
      expect(await fixture.state.readHistory()).toHaveLength(1)
      expect((await fixture.state.read()).triggers).toHaveLength(1)
    })
  })
}
