import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixedClock } from '../../../engine/ports/clock.ts'
import { sequentialIds } from '../../../engine/ports/id-generator.ts'
import { testUnitOfWork, type UnitOfWorkFixture } from '../../ports/unit-of-work.contract.ts'
import { createFsBrainFiles } from './fs-brain-files.ts'
import { createFsSleepStateStore } from './fs-sleep-state-store.ts'
import { createFsUnitOfWork, SLEEP_RUN_JOURNAL } from './fs-unit-of-work.ts'

async function fsFixture(): Promise<UnitOfWorkFixture & { root: string; warnings: string[] }> {
  const root = join(await mkdtemp(join(tmpdir(), 'somnus-uow-')), '_agent_context')
  const warnings: string[] = []
  const warn = (message: string) => {
    warnings.push(message)
  }
  const state = createFsSleepStateStore({ stateDir: join(root, 'state'), brainRoot: root, warn })
  const clock = fixedClock('2026-03-01T12:00:00.000Z')
  const unitOfWork = createFsUnitOfWork({ root, state, clock, ids: sequentialIds(), warn })
  return { unitOfWork, files: createFsBrainFiles(root), state, root, warnings }
}

testUnitOfWork({ name: 'fs journal', make: fsFixture })

describe('fs unit of work', () => {
  it('keeps no journal after a commit, and finishes one a dead process left, once', async () => {
    const fixture = await fsFixture()
    await fixture.unitOfWork.commit({
      id: 'run_1',
      createdAt: '2026-03-01T12:00:00.000Z',
      documents: [{ document: { kind: 'task', slug: 'a' }, before: null, text: 'a\n' }],
      ledger: {
        summary: 'one',
        epoch: '2026-03-01T12:00:00.000Z',
        triggers: [],
        consolidated: { sessions: [], bookmarks: [] },
      },
    })
    expect(existsSync(join(fixture.root, SLEEP_RUN_JOURNAL))).toBe(false)
    // A process that died right after its commit point: the journal and a torn temp file.
    writeFileSync(
      join(fixture.root, SLEEP_RUN_JOURNAL),
      JSON.stringify({
        version: 2,
        id: 'run_2',
        epoch: '2026-03-01T12:00:00.000Z',
        created_at: '2026-03-01T12:00:00.000Z',
        summary: 'two',
        files: [{ path: 'state/b.md', before: null, text: 'b\n' }],
        triggers: [],
        consolidated: { sessions: [], bookmarks: [] },
      }),
    )
    writeFileSync(join(fixture.root, 'state/b.md.123.1.abc123'), 'torn')
    expect(await fixture.unitOfWork.hasInterrupted()).toBe(true)
    expect(await fixture.unitOfWork.finishInterrupted()).toEqual({ conflicts: [] })
    expect(await fixture.files.read({ kind: 'task', slug: 'b' })).toBe('b\n')
    expect(
      readdirSync(join(fixture.root, 'state')).filter((name) => !name.startsWith('.')),
    ).toEqual(['a.md', 'b.md'])
    expect(await fixture.unitOfWork.hasInterrupted()).toBe(false)
    expect(await fixture.unitOfWork.finishInterrupted()).toBeNull()
    expect(await fixture.state.readHistory()).toHaveLength(2)
  })
})
