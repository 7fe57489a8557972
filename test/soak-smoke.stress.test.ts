/**
 * `npm run soak` at a very small scale (20 Stops, 10 kills, 200 fuzzed inputs in-process and 20 as
 * processes), as a real process: the soak runs, prints PASS or FAIL with a matching exit code,
 * and every check it makes holds. The full soak (`npm run soak`) is too long for CI.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from './support/build-once.ts'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

interface SoakOutput {
  pass: boolean
  results: {
    part: string
    rows: { label: string; value: number | string; limit?: number; samples?: string[] }[]
  }[]
}

describe('npm run soak, very small scale', () => {
  beforeAll(async () => {
    await ensureBuilt()
  }, 300_000)

  it('runs every part on the built CLI and hook, and every check holds', () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-soak-smoke-'))
    const out = join(folder, 'soak.json')
    try {
      const args = [
        ...['--stops', '20', '--kills', '10', '--fuzz', '200', '--fuzz-processes', '20'],
        ...['--burst', '20', '--burners', '2'],
      ]
      const run = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'bench/soak.ts', ...args, '--out', out],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, SOMNUS_SKIP_BUILD: '1', SOMNUS_SOAK_KEEP: '0' },
          encoding: 'utf8',
          // A hang guard, not a speed check: quiet, the smoke takes ~25 s; on a shared 2-core
          // machine at load 30+ every process start costs seconds, and the former 170 s guard
          // (likely what failed it under load) killed the soak before it wrote any result.
          timeout: 590_000,
        },
      )
      // A soak that died before writing its results says why (status, signal, stderr's end).
      expect(
        existsSync(out),
        `soak wrote no results: status ${run.status}, signal ${run.signal}, error ${run.error?.message}\n${run.stderr.slice(-3000)}\n${run.stdout.slice(-2000)}`,
      ).toBe(true)
      const output: SoakOutput = JSON.parse(readFileSync(out, 'utf8'))
      expect(output.results.map((result) => result.part)).toEqual([
        'stops',
        'kills',
        'fuzz',
        'burst',
      ])
      for (const result of output.results) {
        for (const row of result.rows) {
          if (row.limit === undefined) continue
          expect
            .soft(
              row.value,
              `${result.part} / ${row.label}: ${(row.samples ?? []).slice(0, 3).join('; ')}`,
            )
            .toBeLessThanOrEqual(row.limit)
        }
      }
      expect(run.stdout.trim().split('\n').at(-1)).toBe(output.pass ? 'soak: PASS' : 'soak: FAIL')
      expect(run.status).toBe(output.pass ? 0 : 1)
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 600_000)
})
