/**
 * `somnus serve` as a user runs it: a real process on embedded PGlite in a data folder it names,
 * keys from `somnus tenant`, requests over a socket, and SIGTERM stopping it cleanly.
 */
import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { handoffBody } from '../support/http-api-requests.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import { startServe as startServeProcess } from '../support/serve-process.ts'

let base: string
let env: Record<string, string>
beforeAll(async () => {
  await ensureBuilt()
  base = mkdtempSync(join(tmpdir(), 'somnus-serve-'))
  env = { HOME: base, SOMNUS_DATA_DIR: join(base, 'data') }
}, 300_000)
afterAll(() => rmSync(base, { recursive: true, force: true }))

const somnus = (args: string[]) => runCliCaptured(args, { cwd: base, env })

/** Starts `somnus serve <args>` in the test's folder with its environment. */
const startServe = (args: string[]) => startServeProcess(args, { cwd: base, env })

async function stop(child: ChildProcess, exited: Promise<number | null>) {
  child.kill('SIGTERM')
  return exited
}

describe('somnus serve', () => {
  it('serves a tenant made by somnus tenant, names its data folder, stops cleanly on SIGTERM', async () => {
    const created = await somnus(['tenant', 'create', 'acme', '--json'])
    expect(created.code).toBe(0)
    const { key } = JSON.parse(created.stdout).key as { key: string }
    expect(key).toMatch(/^smn_/)

    const server = await startServe(['--port', '0', '--no-scheduler'])
    expect(server.output().stdout).toContain(`data: PGlite in ${join(base, 'data')}`)
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const posted = await fetch(`${server.url}/api/v1/handoffs`, {
      method: 'POST',
      headers,
      body: JSON.stringify(handoffBody('s-served', { created_at: '2026-01-05T00:00:00Z' })),
    })
    expect(posted.status).toBe(201)
    const run = await fetch(`${server.url}/api/v1/consolidation/run?wait=true`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ job_type: 'handoff_compression', as_of: '2026-06-01' }),
    })
    expect(run.status).toBe(200)
    expect(((await run.json()) as { results: unknown[] }).results).toHaveLength(1)

    expect(await stop(server.child, server.exited)).toBe(0)
    expect(server.output().stdout).toContain('somnus serve: SIGTERM: stopping')
    expect(server.output().stdout).toContain('somnus serve: stopped')

    // The database is closed and its lock released: the next command opens it and finds the work.
    const listed = await somnus(['handoffs', 'list', '--tenant', 'acme', '--json'])
    expect(listed.code).toBe(0)
    const page = JSON.parse(listed.stdout) as {
      items: Array<{ session_id: string; compression_level: string }>
    }
    expect(page.items).toEqual([
      expect.objectContaining({ session_id: 's-served', compression_level: 'quick_ref' }),
    ])
  })

  it('refuses a non-loopback address without auth, before opening the database (exit 2)', async () => {
    const refused = await somnus(['serve', '--host', '0.0.0.0', '--no-auth'])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('Refusing to serve 0.0.0.0 without API keys')
    expect(refused.stderr).not.toContain('database:')
  })

  it('manages keys: list shows no secret, a revoked key gets 401', async () => {
    const made = await somnus(['tenant', 'keys', 'create', 'acme', '--label', 'ci', '--json'])
    const key = JSON.parse(made.stdout) as { key: string; key_id: string }
    const listed = await somnus(['tenant', 'keys', 'list', 'acme'])
    expect(listed.stdout).toContain(`${key.key_id}\tci\t`)
    expect(listed.stdout).not.toContain(key.key)
    expect((await somnus(['tenant', 'keys', 'revoke', 'acme', key.key_id])).code).toBe(0)
    expect((await somnus(['tenant', 'keys', 'list', 'acme'])).stdout).toMatch(
      new RegExp(`${key.key_id}\\tci\\t\\S+\\trevoked`),
    )
    // --db names the same folder SOMNUS_DATA_DIR does.
    const server = await startServe([
      '--db',
      join(base, 'data'),
      '--port',
      '0',
      '--no-scheduler',
      '--no-worker',
    ])
    const answer = await fetch(`${server.url}/api/v1/consolidation/jobs`, {
      headers: { authorization: `Bearer ${key.key}` },
    })
    expect(answer.status).toBe(401)
    expect(await stop(server.child, server.exited)).toBe(0)
    const again = await somnus(['tenant', 'create', 'acme'])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already exists')
  })

  it('SIGTERM under load: exits 0, and every acknowledged handoff is in the database', async () => {
    const made = await somnus(['tenant', 'keys', 'create', 'acme', '--json'])
    const { key } = JSON.parse(made.stdout) as { key: string }
    const server = await startServe(['--port', '0', '--no-scheduler', '--no-worker'])
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    let acknowledged = 0
    let stopped = false
    const send = async (index: number) => {
      try {
        const response = await fetch(`${server.url}/api/v1/handoffs`, {
          method: 'POST',
          headers,
          body: JSON.stringify(handoffBody(`s-term-${index}`)),
        })
        if (response.status === 201) acknowledged += 1
        if (acknowledged === 40 && !stopped) {
          stopped = true
          server.child.kill('SIGTERM')
        }
      } catch {
        // Refused or cut off once the server stopped listening: not acknowledged, may or may not be stored.
      }
    }
    await Promise.all(Array.from({ length: 300 }, (_, index) => send(index)))
    expect(await server.exited).toBe(0)
    expect(stopped).toBe(true)
    const listed = await somnus([
      'handoffs',
      'list',
      '--tenant',
      'acme',
      '--limit',
      '500',
      '--json',
    ])
    const sessions = (JSON.parse(listed.stdout) as { items: Array<{ session_id: string }> }).items
    const stored = sessions.filter((item) => item.session_id.startsWith('s-term-')).length
    expect(stored).toBeGreaterThanOrEqual(acknowledged)
    expect(acknowledged).toBeGreaterThanOrEqual(40)
  })
})
