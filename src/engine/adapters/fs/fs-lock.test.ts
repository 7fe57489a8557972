/** takeLock against real lock folders: who counts as a live holder, who as a dead one. */
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type HeldLock, takeLock } from './fs-lock.ts'

const STALE_MS = 4_000

describe('takeLock', () => {
  let dir: string
  let lockPath: string
  const taken: HeldLock[] = []
  const take = () => {
    const lock = takeLock({
      path: lockPath,
      staleMs: STALE_MS,
      updateMs: STALE_MS / 2,
      onCompromised: () => undefined,
    })
    taken.push(lock)
    return lock
  }
  /** A lock folder left by someone else, last touched `offsetMs` from now. */
  const plantLock = (offsetMs: number) => {
    mkdirSync(lockPath)
    const touched = new Date(Date.now() + offsetMs)
    utimesSync(lockPath, touched, touched)
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'somnus-lock-'))
    lockPath = join(dir, '.sleep.json.lock')
  })
  afterEach(() => {
    for (const lock of taken.splice(0)) lock.release()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses a lock touched just now, or a little ahead (a holder whose clock runs fast)', () => {
    plantLock(0)
    expect(take).toThrow(expect.objectContaining({ code: 'ELOCKED' }))
    rmSync(lockPath, { recursive: true })
    plantLock(STALE_MS / 2)
    expect(take).toThrow(expect.objectContaining({ code: 'ELOCKED' }))
  })

  it('takes over a lock untouched for longer than staleMs', () => {
    plantLock(-2 * STALE_MS)
    take()
    expect(Math.abs(statSync(lockPath).mtimeMs - Date.now())).toBeLessThan(STALE_MS)
  })

  it('takes over a lock dated further in the future than staleMs: a skewed clock, not a holder', () => {
    plantLock(3_600_000)
    take()
    expect(Math.abs(statSync(lockPath).mtimeMs - Date.now())).toBeLessThan(STALE_MS)
  })
})
