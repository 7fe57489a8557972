/**
 * The Stop inbox on disk: a merge killed at any point neither loses nor double-counts a queued
 * Stop, a planted inbox (symlink, FIFO, damaged lines) is refused or skipped, and a line written
 * after the merge read the file is merged by the next one.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeStateDir, storeAt } from '../../../../test/support/ledger-store.ts'
import { queuedStop } from '../../ports/sleep-state-store.contract.ts'
import { STOP_INBOX_FILE } from './stop-inbox-files.ts'

const ledgerOf = (stateDir: string) =>
  JSON.parse(readFileSync(join(stateDir, '.sleep.json'), 'utf8')) as {
    debt: number
    sessions: { session_id: string }[]
    sessions_since_last_sleep: number
  }

const inboxNames = (stateDir: string) =>
  readdirSync(stateDir).filter((name) => name.startsWith(STOP_INBOX_FILE))

describe('the Stop inbox on disk', () => {
  it('a merge killed after the ledger write, before the inbox was retired, counts nothing twice', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    await store.queue(queuedStop('q1', 'a', 3))
    await store.queue(queuedStop('q2', 'b', 1))
    const inboxPath = join(stateDir, STOP_INBOX_FILE)
    const bytes = readFileSync(inboxPath)
    await store.update((state) => ({ state, result: null }))
    expect(ledgerOf(stateDir).debt).toBe(4)
    // The live file was renamed aside after the write; put it back as a kill before the rename leaves it.
    writeFileSync(inboxPath, bytes)
    await store.update((state) => ({ state, result: null }))
    const again = storeAt(stateDir)
    await again.update((state) => ({ state, result: null }))
    const ledger = ledgerOf(stateDir)
    expect(ledger.debt).toBe(4)
    expect(ledger.sessions_since_last_sleep).toBe(2)
    expect(ledger.sessions.map((session) => session.session_id).sort()).toEqual(['a', 'b'])
  })

  it('a Stop appended to the file a merge already read is merged by the next one', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    await store.queue(queuedStop('q1', 'a', 3))
    await store.update((state) => ({ state, result: null }))
    // A writer that opened the live file before the merge renamed it writes into the retired one.
    const [retired] = inboxNames(stateDir)
    expect(retired).toMatch(/^\.sleep-inbox\.jsonl\.\d+\.\d+$/)
    appendFileSync(
      join(stateDir, retired as string),
      `\n${JSON.stringify(queuedStop('late', 'late-session', 2))}\n`,
    )
    expect((await store.read()).debt).toBe(5)
    await store.update((state) => ({ state, result: null }))
    expect(ledgerOf(stateDir).debt).toBe(5)
  })

  it('a killed merge that never reached the ledger write leaves every Stop to the next holder', async () => {
    const stateDir = await makeStateDir()
    const store = storeAt(stateDir)
    await store.queue(queuedStop('q1', 'a', 3))
    // A process that dies inside its change function writes nothing.
    await expect(
      store.update(() => {
        throw new Error('killed')
      }),
    ).rejects.toThrow('killed')
    expect(inboxNames(stateDir)).toEqual([STOP_INBOX_FILE])
    await store.update((state) => ({ state, result: null }))
    expect(ledgerOf(stateDir).debt).toBe(3)
  })

  it('skips damaged and planted lines, reporting them, and keeps the whole ones', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const warnings: string[] = []
    const store = storeAt(stateDir, warnings)
    const bad = { ...queuedStop('evil', 'evil', 3), outcome: { kind: 'scored', score: 1e9 } }
    writeFileSync(
      join(stateDir, STOP_INBOX_FILE),
      `{"id":"torn","sess\nnot json\n${JSON.stringify(bad)}\n`,
    )
    await store.queue(queuedStop('q1', 'a', 3))
    await store.update((state) => ({ state, result: null }))
    expect(ledgerOf(stateDir).sessions.map((session) => session.session_id)).toEqual(['a'])
    expect(warnings.join('\n')).toMatch(/skipped 3 damaged line/)
  })

  it('never writes through a symlink or into a FIFO planted as the inbox', async () => {
    const stateDir = await makeStateDir()
    await mkdir(stateDir, { recursive: true })
    const outside = join(stateDir, '..', 'outside.txt')
    writeFileSync(outside, 'untouched\n')
    symlinkSync(outside, join(stateDir, STOP_INBOX_FILE))
    const store = storeAt(stateDir)
    await expect(store.queue(queuedStop('q1', 'a', 3))).rejects.toThrow(/ELOOP|symbolic/)
    expect(readFileSync(outside, 'utf8')).toBe('untouched\n')
    const fifoDir = await makeStateDir()
    await mkdir(fifoDir, { recursive: true })
    expect(spawnSync('mkfifo', [join(fifoDir, STOP_INBOX_FILE)]).status).toBe(0)
    const warnings: string[] = []
    const fifoStore = storeAt(fifoDir, warnings)
    await expect(fifoStore.queue(queuedStop('q1', 'a', 3))).rejects.toThrow()
    // Reading does not block on it either: it is reported and left out.
    expect((await fifoStore.read()).debt).toBe(0)
    expect(warnings.join('\n')).toMatch(/regular file/)
  })
})
