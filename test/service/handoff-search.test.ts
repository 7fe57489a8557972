/**
 * Handoff search (issue 19, service side) on both databases: `GET /api/v1/search` over a real
 * loopback socket (a tenant's key never sees another tenant's hits, bad input is a 400 naming the
 * field, the route is in /openapi.json), and `somnus handoffs search` as a spawned CLI on an
 * imported LoCoMo conversation (hits name the handoff and the dialog turn).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  POSTGRES_URL,
} from '../support/service-database.ts'
import { HAS_SHARED, LOCOMO_DIR } from '../support/shared-data.ts'

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(`handoff search on ${engine}`, () => {
    describe('GET /api/v1/search over a socket', () => {
      let api: HttpServiceFixture
      beforeAll(async () => {
        api = await openHttpService(engine, 'socket')
        expect(api.url).not.toBeNull()
        const post = async (key: string, body: unknown) => {
          const answer = await api.send('/api/v1/handoffs', json(key, body))
          expect(answer.status, await answer.clone().text()).toBe(201)
        }
        await post(
          api.keys.first,
          handoffBody('acme-1', {
            handoff_id: 'shared-id',
            learned: 'The flaky checkout test waits on a websocket that never closes.',
          }),
        )
        await post(api.keys.first, {
          handoff_id: 'acme-chat',
          turns: [
            { id: 'D1:1', speaker: 'Caroline', text: 'I went to the support group yesterday.' },
            { id: 'D1:2', speaker: 'Melanie', text: 'Thanks for telling me, Caroline!' },
          ],
        })
        await post(
          api.keys.second,
          handoffBody('globex-1', {
            handoff_id: 'shared-id',
            learned: 'Globex pins its websocket library to 8.x after a memory leak.',
          }),
        )
        // The same outing told twice; June's turn is the closer match by its words alone.
        await post(api.keys.second, {
          handoff_id: 'globex-march',
          created_at: '2024-03-10T10:00:00.000Z',
          turns: [
            {
              id: 'D1:1',
              speaker: 'Jon',
              text: 'I went hiking at the lake last weekend, it was lovely and calm up there.',
            },
          ],
        })
        await post(api.keys.second, {
          handoff_id: 'globex-june',
          created_at: '2024-06-10T10:00:00.000Z',
          turns: [{ id: 'D2:1', speaker: 'Jon', text: 'I went hiking at the lake.' }],
        })
        // PGlite starts in seconds alone, in tens of seconds on a loaded machine.
      }, 180_000)
      afterAll(async () => {
        await api?.close()
      })

      const search = (key: string | null, query: string): Promise<Answer> =>
        api.send(`/api/v1/search?${query}`, get(key))

      it("answers with the key's own tenant's hits only, each naming its handoff and unit", async () => {
        const first = await search(api.keys.first, 'q=websocket')
        expect(first.status).toBe(200)
        const body = await first.json()
        expect(body).toMatchObject({
          success: true,
          tenant_id: 'acme',
          query: 'websocket',
          count: 1,
        })
        expect(body.hits).toEqual([
          expect.objectContaining({
            handoff_id: 'shared-id',
            unit: 'learned',
            level: 'full',
            sources: ['shared-id#learned'],
            snippet: 'The flaky checkout test waits on a websocket that never closes.',
          }),
        ])
        const second = await (await search(api.keys.second, 'q=websocket')).json()
        expect(second.tenant_id).toBe('globex')
        expect(second.hits.map((hit: { snippet: string }) => hit.snippet)).toEqual([
          'Globex pins its websocket library to 8.x after a memory leak.',
        ])
        // Words only the other tenant has find nothing; naming the other tenant is a 404.
        expect((await (await search(api.keys.first, 'q=globex%20leak')).json()).hits).toEqual([])
        expect((await search(api.keys.first, 'q=leak&tenant_id=globex')).status).toBe(404)
        expect((await search(null, 'q=websocket')).status).toBe(401)
      })

      it('finds a turn by its words and by who said it, with its dialog id', async () => {
        const body = await (
          await search(api.keys.first, 'q=what%20did%20Caroline%20go%20to')
        ).json()
        expect(body.hits[0]).toMatchObject({
          handoff_id: 'acme-chat',
          unit: 'D1:1',
          speaker: 'Caroline',
          sources: ['D1:1'],
        })
        const limited = await (await search(api.keys.first, 'q=support%20test&limit=1')).json()
        expect(limited.count).toBe(1)
        const summaries = await (await search(api.keys.first, 'q=support&level=summary')).json()
        expect(summaries.hits).toEqual([])
      })

      it('ranks first the session of a date the question names', async () => {
        const undated = await (
          await search(api.keys.second, 'q=where%20did%20Jon%20go%20hiking')
        ).json()
        expect(undated.hits.map((hit: { unit: string }) => hit.unit)).toEqual(['D2:1', 'D1:1'])
        for (const date of ['in%20March%202024', 'on%2010%20March%2C%202024', 'in%20March']) {
          const dated = await (
            await search(api.keys.second, `q=where%20did%20Jon%20go%20hiking%20${date}`)
          ).json()
          expect(dated.hits[0], date).toMatchObject({ handoff_id: 'globex-march', unit: 'D1:1' })
        }
      })

      it('refuses bad input with a 400 naming the field', async () => {
        for (const [query, field] of [
          ['', 'q'],
          ['q=%20%20', 'q'],
          ['q=x&limit=0', 'limit'],
          ['q=x&limit=abc', 'limit'],
          ['q=x&limit=101', 'limit'],
          ['q=x&level=integrated', 'level'],
          ['q=x&limt=5', 'limt'],
          [`q=${'a'.repeat(1001)}`, 'q'],
        ] as const) {
          const answer = await search(api.keys.first, query)
          expect(answer.status, query).toBe(400)
          const body = await answer.json()
          expect(body.error.field ?? body.error.message, query).toContain(field)
        }
      })

      it('is described in /openapi.json', async () => {
        const document = await ((await api.send('/openapi.json')) as Answer).json()
        const route = document.paths['/api/v1/search'].get
        expect(route.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(
          expect.arrayContaining(['q', 'limit', 'level', 'tenant_id']),
        )
        expect(Object.keys(route.responses)).toEqual(
          expect.arrayContaining(['200', '400', '401', '404']),
        )
      })
    })

    describe.skipIf(!HAS_SHARED)('somnus handoffs search, spawned', () => {
      let folder: string
      let db: string
      let schema: string | undefined
      const somnus = (...args: string[]) =>
        spawnSync(process.execPath, [SOMNUS_BIN, ...args, '--db', db], {
          cwd: folder,
          env: { ...process.env, HOME: folder, SOMNUS_DATABASE_URL: '' },
          encoding: 'utf8',
        })

      beforeAll(async () => {
        await ensureBuilt()
        folder = mkdtempSync(join(tmpdir(), 'somnus-search-'))
        schema = engine === 'postgres' ? freshSchemaName('search') : undefined
        db = engine === 'postgres' ? `${POSTGRES_URL}?schema=${schema}` : join(folder, 'db')
        expect(somnus('tenant', 'create', 'locomo').status).toBe(0)
        const imported = somnus(
          'handoffs',
          'import',
          join(LOCOMO_DIR, '26.json'),
          '--format',
          'locomo',
          '--tenant',
          'locomo',
        )
        expect(imported.status, imported.stderr).toBe(0)
      }, 300_000)
      afterAll(async () => {
        if (schema !== undefined) await dropSchema(schema)
        rmSync(folder, { recursive: true, force: true })
      })

      // Each spawned command opens the database (PGlite: seconds, more under load).
      it('names the handoff and the LoCoMo turn of each hit, as JSON and as text', {
        timeout: 180_000,
      }, () => {
        const run = somnus(
          'handoffs',
          'search',
          'adoption',
          'agencies',
          '--tenant',
          'locomo',
          '--limit',
          '3',
          '--json',
        )
        expect(run.status, run.stderr).toBe(0)
        const answer = JSON.parse(run.stdout)
        expect(answer).toMatchObject({ tenant_id: 'locomo', query: 'adoption agencies', count: 3 })
        for (const hit of answer.hits) {
          expect(hit.handoff_id).toMatch(/^locomo-26-s\d+$/)
          expect(hit.unit).toMatch(/^D\d+:\d+$/)
          // The turn's session is the handoff's: D3:7 lives in locomo-26-s3.
          expect(hit.handoff_id).toBe(`locomo-26-s${hit.unit.slice(1, hit.unit.indexOf(':'))}`)
          expect(hit.snippet.toLowerCase()).toMatch(/adopt|agenc/)
        }
        const text = somnus(
          'handoffs',
          'search',
          'adoption agencies',
          '--tenant',
          'locomo',
          '--limit',
          '2',
        )
        expect(text.status, text.stderr).toBe(0)
        expect(text.stdout).toMatch(
          /^locomo-26-s\d+ D\d+:\d+ \((Caroline|Melanie), 20\d\d-\d\d-\d\d\)\n {2}\S/,
        )
      })

      it('refuses bad options with the fix, and has a --help that teaches', {
        timeout: 180_000,
      }, () => {
        const limit = somnus('handoffs', 'search', 'x', '--tenant', 'locomo', '--limit', '0')
        expect(limit.status).not.toBe(0)
        expect(limit.stderr).toContain('--limit needs a whole number from 1 to 100')
        const level = somnus('handoffs', 'search', 'x', '--level', 'integrated')
        expect(level.status).not.toBe(0)
        expect(level.stderr).toContain('use one of full, summary, quick_ref')
        const missing = somnus('handoffs', 'search', 'x', '--tenant', 'nobody')
        expect(missing.status).not.toBe(0)
        expect(missing.stderr).toContain('somnus tenant create nobody')
        const help = spawnSync(process.execPath, [SOMNUS_BIN, 'handoffs', 'search', '--help'], {
          encoding: 'utf8',
          env: { ...process.env, HOME: folder },
        })
        expect(help.stdout).toContain('D3:7')
        expect(help.stdout).toContain('--level')
      })
    })
  })
}
