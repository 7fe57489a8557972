/**
 * `somnus serve` with creatures, as a user runs it: a real process on PGlite in a data folder, a
 * tenant's creature in `<data folder>/minds/<tenant>/`, driven over a socket and read back by
 * `somnus mind` (the API and the CLI share one folder format).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import { startServe } from '../support/serve-process.ts'

let base: string
let env: Record<string, string>
beforeAll(async () => {
  await ensureBuilt()
  base = mkdtempSync(join(tmpdir(), 'somnus-serve-minds-'))
  env = { HOME: base, SOMNUS_DATA_DIR: join(base, 'data') }
}, 300_000)
afterAll(() => rmSync(base, { recursive: true, force: true }))

const somnus = (args: string[]) => runCliCaptured(args, { cwd: base, env })

describe('somnus serve: a creature per tenant', () => {
  it('keeps each tenant’s creature in <data folder>/minds/<tenant>, readable by somnus mind', async () => {
    const created = await somnus(['tenant', 'create', 'acme', '--json'])
    expect(created.code).toBe(0)
    const { key } = JSON.parse(created.stdout).key as { key: string }

    const server = await startServe(['--port', '0', '--no-scheduler', '--no-worker'], {
      cwd: base,
      env,
    })
    const { child, url, exited } = server
    const minds = join(base, 'data', 'minds')
    expect(server.output().stdout).toContain(`minds: ${minds}`)
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const post = (path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const events = await post('/api/v1/mind/events', {
      events: [
        { type: 'message', role: 'user', content: 'Rotate the staging certificates today.' },
        ...Array.from({ length: 6 }, (_, index) => ({
          type: 'action',
          tool: 'bash',
          content: `certbot renew --cert-name staging-${index} -> renewed`,
        })),
      ],
    })
    expect(events.status).toBe(200)
    expect(await events.json()).toMatchObject({ actions: 6, warning: null, forced_sleep: null })
    const slept = await post('/api/v1/mind/sleep', { seconds: 30 })
    expect(await slept.json()).toMatchObject({ consolidation: 'full', dream: { kind: 'full' } })
    const woke = (await (await post('/api/v1/mind/wake')).json()) as { message: string }
    expect(woke.message).toContain('This is cycle 2.')
    const openapi = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(openapi.paths)).toContain('/api/v1/mind/events')

    child.kill('SIGTERM')
    expect(await exited).toBe(0)

    const folder = join(minds, 'acme')
    expect(existsSync(join(folder, 'conversation.jsonl'))).toBe(true)
    const status = await somnus(['mind', 'status', '--dir', folder, '--json'])
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout)).toMatchObject({ dreams: 1, cycle: 2, actions: 0 })
    const recall = await somnus(['mind', 'recall', 'staging', 'certificates', '--dir', folder])
    expect(recall.stdout).toContain('conversation.jsonl:1')
  })
})
