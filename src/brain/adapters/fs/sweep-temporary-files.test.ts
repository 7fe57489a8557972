import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sweepTemporaryFiles } from './sweep-temporary-files.ts'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

describe('sweepTemporaryFiles', () => {
  it("removes a killed recall writer's leftover, keeps a live writer's and every other file", () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-sweep-'))
    folders.push(folder)
    const dead = `.recall-transcripts.mf3k2-123-1.seg.${deadPid()}.1.ab12cd`
    const live = `.recall-brain.mf3k2-456-2.seg.${process.pid}.3.ef34gh`
    const deadManifest = `.recall-brain.json.${deadPid()}.2.zz99yy`
    const segment = '.recall-brain.mf3k2-456-2.seg'
    for (const name of [dead, live, deadManifest, segment, 'notes.md.1.2.abc'])
      writeFileSync(join(folder, name), 'x')
    const swept = sweepTemporaryFiles(folder, ['.sleep.json'], () => {})
    expect(swept.sort()).toEqual([dead, deadManifest].sort())
    expect(existsSync(join(folder, live))).toBe(true)
    expect(existsSync(join(folder, segment))).toBe(true)
    expect(existsSync(join(folder, 'notes.md.1.2.abc'))).toBe(true)
  })
})
