import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sampleHistory } from '../../ports/sleep-state-store.contract.ts'
import {
  createFsSleepStateStore,
  SLEEP_HISTORY_FILE,
  SLEEP_LOCK_FILE,
  SLEEP_STATE_FILE,
} from './fs-sleep-state-store.ts'

/** A brain with a state folder, a folder outside it holding one executable file, and a store. */
function ledgerWithOutside() {
  const base = mkdtempSync(join(tmpdir(), 'somnus-ledger-confine-'))
  const root = join(base, '_agent_context')
  const stateDir = join(root, 'state')
  const outside = join(base, 'outside')
  mkdirSync(root)
  mkdirSync(outside)
  const victim = join(outside, 'x')
  writeFileSync(victim, '{"debt": 7}\n')
  chmodSync(victim, 0o755)
  const unchanged = () => {
    expect(readFileSync(victim, 'utf8')).toBe('{"debt": 7}\n')
    expect(statSync(victim).mode & 0o7777).toBe(0o755)
    expect(readdirSync(outside)).toEqual(['x'])
  }
  const store = createFsSleepStateStore({
    stateDir,
    brainRoot: root,
    warn: () => {},
    lockWaitMs: 300,
  })
  const addDebt = () => store.update((state) => ({ state: { ...state, debt: 1 }, result: null }))
  return { root, stateDir, outside, victim, unchanged, store, addDebt }
}

describe('fs sleep state store: confined to the brain', () => {
  it('refuses a .sleep.json symlinked out of the brain, for reads and writes', async () => {
    const { stateDir, victim, unchanged, store, addDebt } = ledgerWithOutside()
    mkdirSync(stateDir)
    symlinkSync(victim, join(stateDir, SLEEP_STATE_FILE))
    await expect(addDebt()).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    await expect(store.read()).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    unchanged()
  })

  it('refuses a .sleep-history.json symlinked out of the brain', async () => {
    const { stateDir, victim, unchanged, store } = ledgerWithOutside()
    mkdirSync(stateDir)
    symlinkSync(victim, join(stateDir, SLEEP_HISTORY_FILE))
    const finish = store.update((state) => ({ state, result: null, history: sampleHistory('a') }))
    await expect(finish).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    unchanged()
  })

  it('refuses a state folder symlinked out: no lock, ledger or temporary file made there', async () => {
    const { stateDir, outside, unchanged, addDebt } = ledgerWithOutside()
    symlinkSync(outside, stateDir)
    await expect(addDebt()).rejects.toMatchObject({
      code: 'OUTSIDE_BRAIN',
      message: expect.stringContaining(outside),
    })
    unchanged()
  })

  it('refuses a lock that is a symlink (OUTSIDE_BRAIN) or a file (ENVIRONMENT), at once', async () => {
    const { stateDir, outside, unchanged, addDebt } = ledgerWithOutside()
    mkdirSync(stateDir)
    symlinkSync(outside, join(stateDir, SLEEP_LOCK_FILE))
    await expect(addDebt()).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    unchanged()
    const other = ledgerWithOutside()
    mkdirSync(other.stateDir)
    writeFileSync(join(other.stateDir, SLEEP_LOCK_FILE), '')
    await expect(other.addDebt()).rejects.toMatchObject({
      code: 'ENVIRONMENT',
      message: expect.stringMatching(/\.sleep\.json\.lock is a file.*Delete it/),
    })
  })

  it('reads a ledger symlinked to a file inside the brain, but never writes through the link', async () => {
    const { root, stateDir, store, addDebt } = ledgerWithOutside()
    mkdirSync(stateDir)
    writeFileSync(join(root, 'ledger.json'), '{"debt": 3}\n')
    symlinkSync(join(root, 'ledger.json'), join(stateDir, SLEEP_STATE_FILE))
    expect((await store.read()).debt).toBe(3)
    await expect(addDebt()).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    expect(readFileSync(join(root, 'ledger.json'), 'utf8')).toBe('{"debt": 3}\n')
  })
})
