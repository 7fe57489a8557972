/**
 * `somnus handoffs import` is all or nothing and never duplicates (issue 22 item 2), at scale
 * (10,000 sessions) on both databases: a failure midway leaves nothing; re-running stores each
 * session once; a kill -9 midway (a real process on PostgreSQL) leaves nothing either.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  HAS_POSTGRES,
  POSTGRES_URL,
} from '../support/service-database.ts'

const SESSIONS = 10_000

/** One JSON line per session, none with an id; `broken` names the line given a missing parent. */
function sessions(count: number, broken: number | null = null): string {
  const lines: string[] = []
  for (let index = 0; index < count; index += 1) {
    lines.push(
      JSON.stringify({
        session_id: `s-${index}`,
        experienced: `Session ${index}: moved the ingest path to batched inserts.`,
        learned: 'Measure before tuning.',
        created_at: new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString(),
        ...(index === broken ? { parent_handoff_id: 'no-such-parent' } : {}),
      }),
    )
  }
  return `${lines.join('\n')}\n`
}

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`handoffs import on ${engine}`, () => {
    let folder: string
    let db: string
    let schema: string | undefined
    const somnus = (args: string[], stdin?: string) =>
      runCliCaptured([...args, '--db', db], {
        cwd: folder,
        env: { HOME: folder },
        ...(stdin === undefined ? {} : { stdin }),
      })
    /** The tenant's handoffs, counted from an export. */
    const stored = async (tenant: string) => {
      const exported = await somnus(['handoffs', 'export', '--tenant', tenant])
      expect(exported.code, exported.stderr).toBe(0)
      return exported.stdout.split('\n').filter((line) => line !== '').length
    }

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'somnus-import-'))
      schema = engine === 'postgres' ? freshSchemaName('import') : undefined
      db = engine === 'postgres' ? `${POSTGRES_URL}?schema=${schema}` : join(folder, 'db')
      expect((await somnus(['tenant', 'create', 'acme'])).code).toBe(0)
    }, 60_000)
    afterAll(async () => {
      if (schema !== undefined) await dropSchema(schema)
      rmSync(folder, { recursive: true, force: true })
    })

    it('stores nothing when row 6,000 of 10,000 fails, then each session once however often it runs', async () => {
      const failed = await somnus(
        ['handoffs', 'import', '--format', 'jsonl', '--tenant', 'acme'],
        sessions(SESSIONS, 6_000),
      )
      expect(failed.code).toBe(1)
      expect(failed.stderr).toContain('parent_handoff_id')
      // It got past the first chunks before failing: the failure really was midway.
      expect(failed.stderr).toContain('written 5,500 of 10,000')
      expect(await stored('acme')).toBe(0)

      const file = join(folder, 'sessions.jsonl')
      writeFileSync(file, sessions(SESSIONS))
      const first = await somnus([
        'handoffs',
        'import',
        file,
        '--format',
        'jsonl',
        '--tenant',
        'acme',
      ])
      expect(first.code, first.stderr).toBe(0)
      expect(first.stdout).toBe('imported 10,000 handoff(s) into tenant acme\n')
      expect(await stored('acme')).toBe(SESSIONS)

      const again = await somnus([
        'handoffs',
        'import',
        file,
        '--format',
        'jsonl',
        '--tenant',
        'acme',
        '--json',
      ])
      expect(again.code, again.stderr).toBe(0)
      const result = JSON.parse(again.stdout) as { imported: number; skipped: string[] }
      expect(result.imported).toBe(0)
      expect(result.skipped).toHaveLength(SESSIONS)
      // A longer file: only its new sessions are added.
      writeFileSync(file, sessions(SESSIONS + 5))
      const grown = await somnus([
        'handoffs',
        'import',
        file,
        '--format',
        'jsonl',
        '--tenant',
        'acme',
      ])
      expect(grown.stdout).toBe(
        'imported 5 handoff(s) into tenant acme; 10,000 already there, skipped\n',
      )
      expect(await stored('acme')).toBe(SESSIONS + 5)
    }, 300_000)

    it('refuses an import that gives one handoff_id twice, storing nothing', async () => {
      const lines = [
        JSON.stringify({ handoff_id: 'twice', experienced: 'one' }),
        JSON.stringify({ handoff_id: 'fresh', experienced: 'two' }),
        JSON.stringify({ handoff_id: 'twice', experienced: 'three' }),
      ].join('\n')
      expect((await somnus(['tenant', 'create', 'dup'])).code).toBe(0)
      const refused = await somnus(
        ['handoffs', 'import', '--format', 'jsonl', '--tenant', 'dup'],
        lines,
      )
      expect(refused.code).toBe(1)
      expect(refused.stderr).toContain('twice')
      expect(await stored('dup')).toBe(0)
    })
  })
}

describe.skipIf(!HAS_POSTGRES)('handoffs import killed with SIGKILL midway (PostgreSQL)', () => {
  const schema = freshSchemaName('importkill')
  const folder = mkdtempSync(join(tmpdir(), 'somnus-import-kill-'))
  const db = `${POSTGRES_URL}?schema=${schema}`
  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)
  afterAll(async () => {
    await dropSchema(schema)
    rmSync(folder, { recursive: true, force: true })
  })

  it('leaves nothing behind', async () => {
    const somnus = (args: string[]) =>
      runCliCaptured([...args, '--db', db], { cwd: folder, env: { HOME: folder } })
    expect((await somnus(['tenant', 'create', 'acme'])).code).toBe(0)
    const file = join(folder, 'sessions.jsonl')
    writeFileSync(file, sessions(SESSIONS))
    const child = spawn(
      process.execPath,
      [SOMNUS_BIN, 'handoffs', 'import', file, '--format', 'jsonl', '--tenant', 'acme', '--db', db],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', HOME: folder } },
    )
    let stderr = ''
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    )
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk)
      if (stderr.includes('written 500 of')) child.kill('SIGKILL')
    })
    expect(await ended, stderr).toBe('SIGKILL')
    const exported = await somnus(['handoffs', 'export', '--tenant', 'acme'])
    expect(exported.stdout).toBe('')
  }, 120_000)
})
