/**
 * `somnus handoffs import|list|export`, `somnus consolidate run` and `somnus worker --until-empty`
 * in-process on one embedded PGlite folder (reopened by each command, as a user's runs do), and
 * their usage errors.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../../../../test/support/shared-data.ts'

const folder = mkdtempSync(join(tmpdir(), 'somnus-service-cli-'))
const env = { SOMNUS_DATA_DIR: join(folder, 'db'), HOME: folder }
const run = (...args: string[]) => runCliCaptured(args, { cwd: folder, env })

describe('service CLI on embedded PGlite', () => {
  it('imports JSON handoffs, names the database, and refuses bad input with the field', async () => {
    writeFileSync(
      join(folder, 'handoffs.json'),
      JSON.stringify([
        {
          handoff_id: 'h-1',
          created_at: '2026-01-01T00:00:00Z',
          experienced:
            'Shipped the importer. The api key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789 leaked in a log.',
          learned: 'Validate at the edge.',
          becoming: 'More careful.',
          // Long enough (~1,000 tokens) that a summary and a quick ref are shorter than it.
          story: Array.from(
            { length: 50 },
            (_, step) =>
              `Step ${step + 1}: the importer read batch ${step} of the customer file and wrote ${(step * 13) % 97} rows.`,
          ).join(' '),
        },
        { handoff_id: 'h-2', created_at: '2026-06-25T00:00:00Z', story: 'A fresh one.' },
      ]),
    )
    const imported = await run('handoffs', 'import', 'handoffs.json')
    expect(imported.code, imported.stderr).toBe(0)
    expect(imported.stdout).toContain('imported 2 handoff(s) into tenant default')
    expect(imported.stderr).toContain(`database: PGlite in ${join(folder, 'db')}`)

    writeFileSync(join(folder, 'bad.json'), JSON.stringify({ significance: 3 }))
    const bad = await run('handoffs', 'import', 'bad.json')
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('significance')
    // Importing the same file again stores nothing twice.
    expect((await run('handoffs', 'import', 'handoffs.json')).stdout).toContain(
      'imported 0 handoff(s) into tenant default; 2 already there, skipped',
    )
    // The first command creates the embedded database (initdb in WASM: seconds, more on a busy machine).
  }, 180_000)

  it('consolidates as of a date with progress, then lists and exports every level with sources', async () => {
    const result = await run(
      'consolidate',
      'run',
      '--as-of',
      '2026-07-01',
      '--job-type',
      'handoff_compression',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/handoff_compression: completed, 1 processed, 1 affected/)
    expect(result.stderr).toContain('handoff_compression: started')

    const list = await run('handoffs', 'list')
    // Past the integration age with no principle to fold into: it rests at quick_ref.
    expect(list.stdout).toMatch(/h-1\s+2026-01-01\s+quick_ref/)
    expect(list.stdout).toMatch(/h-2\s+2026-06-25\s+full/)

    const exported = await run('handoffs', 'export', '--json')
    const handoffs = JSON.parse(exported.stdout) as Record<string, unknown>[]
    const old = handoffs.find((handoff) => handoff.handoff_id === 'h-1')
    expect(old).toMatchObject({ compression_level: 'quick_ref', integrated_into: null })
    expect(old?.summary_sources).toEqual(expect.arrayContaining(['h-1#experienced']))
    expect(String(old?.quick_ref)).toContain('[2026-01-01]')
    // Redacted before storing: the key never reaches the database or the export.
    expect(exported.stdout).not.toContain('sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789')

    const json = await run('consolidate', 'run', '--as-of', '2026-07-01', '--json')
    expect(JSON.parse(json.stdout)).toMatchObject({
      success: true,
      tenant_id: 'default',
      job_type: 'all',
    })
  })

  it('runs queued jobs with a worker that exits when the queue is empty', async () => {
    const worker = await run('worker', '--until-empty', '--no-schedule')
    expect(worker.code, worker.stderr).toBe(0)
    expect(worker.stdout).toContain('worker stopped')
  })

  it('answers usage errors with exit 2 and the fix', async () => {
    const type = await run('consolidate', 'run', '--job-type', 'chunk_reorganization')
    expect(type.code).toBe(2)
    expect(type.stderr).toContain('handoff_compression')
    const date = await run('consolidate', 'run', '--as-of', 'yesterday')
    expect(date.code).toBe(2)
    expect(date.stderr).toContain('2026-09-01')
    expect((await run('handoffs', 'list', '--limit', '-1')).code).toBe(2)
    expect((await run('consolidate', 'run', '--tenant', 'nobody')).stderr).toContain(
      'somnus tenant create',
    )
  })

  it.skipIf(!HAS_SHARED)(
    'imports a LoCoMo conversation: one handoff per session, dialog ids as sources',
    async () => {
      const imported = await run(
        'handoffs',
        'import',
        '--format',
        'locomo',
        join(LOCOMO_DIR, '26.json'),
      )
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stdout).toContain('imported 19 handoff(s)')
      const page = JSON.parse((await run('handoffs', 'list', '--limit', '100', '--json')).stdout)
      const last = page.items.find(
        (item: { handoff_id: string }) => item.handoff_id === 'locomo-26-s19',
      )
      expect(last).toMatchObject({
        created_at: '2023-10-22T09:55:00.000Z',
        compression_level: 'full',
      })
      expect(last.sources[0]).toBe('D19:1')
    },
  )
})
