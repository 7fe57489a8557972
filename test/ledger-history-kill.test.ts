/**
 * A consolidation killed between its two writes (the history first, then the ledger) leaves a
 * history entry for work the ledger still holds. The run that redoes the work must not add a
 * second entry for it (issue 18, item 8). Real processes and files: the built CLI.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from './support/build-once.ts'

describe('a consolidation killed between the history write and the ledger write', () => {
  let base = ''
  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)
  afterEach(() => {
    if (base) rmSync(base, { recursive: true, force: true })
  })

  it('is recorded once in the history when the work is done again', () => {
    base = mkdtempSync(join(tmpdir(), 'somnus-history-kill-'))
    const project = join(base, 'project')
    const home = join(base, 'home')
    mkdirSync(project, { recursive: true })
    mkdirSync(home)
    const somnus = (...args: string[]) => {
      const run = spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: home },
        encoding: 'utf8',
      })
      expect(run.status, run.stderr).toBe(0)
      return run
    }
    somnus('init', project)
    somnus('sleep', 'add', '2', 'Designed the retry policy with Alice')
    somnus('sleep', 'add', '1', 'Reviewed the importer')
    const state = join(project, '_agent_context', 'state')
    const ledger = join(state, '.sleep.json')
    copyFileSync(ledger, join(base, 'ledger-before'))
    somnus('sleep', 'done', 'Folded the retry policy into memory')
    // What a kill -9 after the history write and before the ledger write leaves: the new
    // history entry, and the ledger as it was before.
    copyFileSync(join(base, 'ledger-before'), ledger)
    somnus('sleep', 'done', 'Folded the retry policy into memory, again')
    const history = JSON.parse(readFileSync(join(state, '.sleep-history.json'), 'utf8')) as {
      summary: string
      session_ids: string[]
    }[]
    expect(history.map((entry) => entry.summary)).toEqual([
      'Folded the retry policy into memory, again',
    ])
    expect(history[0]?.session_ids).toHaveLength(2)
    expect(JSON.parse(readFileSync(ledger, 'utf8')).debt).toBe(0)
    // A later consolidation of new work keeps the committed entry before it.
    somnus('sleep', 'add', '1', 'Paired on the search index')
    somnus('sleep', 'done', 'Folded the index notes')
    const after = JSON.parse(readFileSync(join(state, '.sleep-history.json'), 'utf8'))
    expect(after.map((entry: { summary: string }) => entry.summary)).toEqual([
      'Folded the index notes',
      'Folded the retry policy into memory, again',
    ])
  }, 60_000)
})
