/** Fs ledger stores in temporary state folders, for the store's unit and stress tests. */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { createFsSleepStateStore } from '../../src/brain/adapters/fs/fs-sleep-state-store.ts'

const temporaryDirs: string[] = []

afterAll(async () => {
  await Promise.all(temporaryDirs.map((dir) => rm(dir, { recursive: true, force: true })))
})

/** A fresh `state` folder path inside a temporary folder removed after the test file. */
export async function makeStateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'somnus-ledger-'))
  temporaryDirs.push(dir)
  return join(dir, 'state')
}

/** The fs store at `stateDir`, its warnings pushed to `warnings`, its clock fixed. */
export function storeAt(stateDir: string, warnings: string[] = [], staleMs?: number) {
  return createFsSleepStateStore({
    stateDir,
    warn: (message) => warnings.push(message),
    now: () => new Date('2026-03-01T12:34:56.789Z'),
    ...(staleMs === undefined ? {} : { staleMs }),
  })
}
