import { appendFileSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testMindStore } from '../../ports/mind-store.contract.ts'
import { createFsMindStore } from './fs-mind-store.ts'

const folder = () => join(mkdtempSync(join(tmpdir(), 'somnus-mind-')), '.self')

testMindStore({ name: 'fs', make: async () => createFsMindStore({ folder: folder() }) })

describe('fs mind store', () => {
  it('keeps a torn last line (a killed writer) apart from the next append', async () => {
    const path = folder()
    const store = createFsMindStore({ folder: path })
    await store.exclusive((files) => files.appendLog('conversation', ['{"a":1}']))
    expect(await store.files.countLines('conversation')).toBe(1)
    appendFileSync(join(path, 'conversation.jsonl'), '{"a":2, "tor')
    expect(await store.files.countLines('conversation')).toBe(2)
    await store.exclusive((files) => files.appendLog('conversation', ['{"a":3}']))
    expect(await store.files.countLines('conversation')).toBe(3)
    expect(await store.files.readLog('conversation')).toEqual([
      '{"a":1}',
      '{"a":2, "tor',
      '{"a":3}',
    ])
  })

  it('writes the files of the seed layout in the folder, creating it', async () => {
    const path = folder()
    const store = createFsMindStore({ folder: path, location: '.self' })
    await store.exclusive(async (files) => {
      await files.writeState('{}')
      await files.appendLog('dreams', ['{}'])
      await files.writeDocument('diary', '# Diary\n')
    })
    expect(readFileSync(join(path, 'mind-state.json'), 'utf8')).toBe('{}\n')
    expect(readFileSync(join(path, 'dreams.jsonl'), 'utf8')).toBe('{}\n')
    expect(readFileSync(join(path, 'diary.md'), 'utf8')).toBe('# Diary\n')
    expect(store.location).toBe('.self')
  })

  it('gives up with STATE_LOCKED when another holder keeps the lock', async () => {
    const path = folder()
    const holder = createFsMindStore({ folder: path })
    const waiter = createFsMindStore({ folder: path, lockWaitMs: 100 })
    let release: () => void = () => {}
    const held = holder.exclusive(
      () =>
        new Promise<void>((resolve) => {
          release = resolve
        }),
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    await expect(waiter.exclusive(async () => 'never')).rejects.toMatchObject({
      code: 'STATE_LOCKED',
    })
    release()
    await held
    expect(await waiter.exclusive(async () => 'now')).toBe('now')
  })
})

describe('fs mind store confinement', () => {
  it('refuses to write through a symlink that leads out of the folder, and leaves its target alone', async () => {
    const path = folder()
    const outside = join(mkdtempSync(join(tmpdir(), 'somnus-outside-')), 'victim.md')
    writeFileSync(outside, 'keep me\n')
    const store = createFsMindStore({ folder: path })
    await store.exclusive((files) => files.writeState('{}'))
    symlinkSync(outside, join(path, 'observations.md'))
    await expect(
      store.exclusive((files) => files.appendDocument('observations', 'RED 09:00 x\n')),
    ).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    await expect(
      store.exclusive((files) => files.writeDocument('observations', 'x')),
    ).rejects.toMatchObject({ code: 'OUTSIDE_BRAIN' })
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n')
  })
})
