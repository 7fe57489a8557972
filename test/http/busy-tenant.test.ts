/**
 * One tenant cannot freeze the server (issue 22 item 3), on both databases: `somnus serve` in its
 * own process, requests over a socket. A big handoff of unspaced text (about a second of tokenizer
 * time per MB) is redacted and counted on the CPU threads, in turns between tenants, and
 * consolidating such handoffs runs there too, so `/health` and the other tenants are answered
 * meanwhile. The tests compare which answer comes first, never how long one takes: a server that
 * does the work on the thread that answers requests answers `/health` only after it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../src/engine/ports/clock.ts'
import { sequentialIds } from '../../src/engine/ports/id-generator.ts'
import { openSqlServiceStores } from '../../src/service/adapters/sql/sql-service-stores.ts'
import { newHandoff } from '../../src/service/app/create-handoffs.ts'
import { createTenant, randomSecret } from '../../src/service/app/manage-tenants.ts'
import { ensureBuilt } from '../support/build-once.ts'
import { json } from '../support/http-api-requests.ts'
import { type ServeProcess, startServe } from '../support/serve-process.ts'
import {
  dropSchema,
  ENGINES,
  engineAvailable,
  freshSchemaName,
  POSTGRES_SKIP_REASON,
  POSTGRES_URL,
} from '../support/service-database.ts'

/** Letters without a space, different for every seed: no tokenizer cache has seen them. */
function unspacedWord(length: number, seed: number): string {
  const letters = new Uint8Array(length)
  // xorshift32: every slice of the run differs, so the tokenizer's table of pieces never helps.
  let state = (seed * 2_654_435_761) >>> 0 || 1
  for (let index = 0; index < length; index += 1) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    letters[index] = 97 + (state % 26)
  }
  return Buffer.from(letters).toString('latin1')
}

/** A handoff body of `fields` unspaced runs of `letters` each. */
function bigBody(seed: number, letters: number, fields = 1) {
  const names = ['experienced', 'noticed', 'learned', 'story', 'remember'].slice(0, fields)
  return Object.fromEntries(
    names.map((name, index) => [name, unspacedWord(letters, seed * 10 + index)]),
  )
}

/** Resolves with `label` once `request` has answered; records the order of answers. */
function track(
  order: string[],
  label: string,
  request: Promise<Response>,
  // biome-ignore lint/suspicious/noExplicitAny: the tests read fields of JSON answers they check
): Promise<{ status: number; headers: Headers; body: any }> {
  return request.then(async (response) => {
    const text = await response.text()
    order.push(label)
    return { status: response.status, headers: response.headers, body: JSON.parse(text) }
  })
}

/**
 * CPU seconds a process has spent on its main thread (the one that answers requests) and on all
 * its other threads, from Linux's /proc: which thread did the work, whatever the machine's load.
 */
function threadCpu(pid: number | undefined): { main: number; others: number } {
  let main = 0
  let others = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    } catch {
      continue // the thread ended while the folder was read
    }
    // utime and stime, the 14th and 15th fields: the 12th and 13th after the command's ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100
    if (tid === String(pid)) main += seconds
    else others += seconds
  }
  return { main, others }
}

/** The work between two readings ran mostly on other threads than the main one. */
function expectWorkOffMainThread(
  before: { main: number; others: number },
  after: { main: number; others: number },
) {
  const main = after.main - before.main
  const others = after.others - before.others
  expect(others, `main thread ${main} s, others ${others} s`).toBeGreaterThan(main * 2)
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const OLD = new Date(Date.now() - 200 * 86_400_000).toISOString()

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(
    engineAvailable(engine) ? engine : `${engine} (skipped: ${POSTGRES_SKIP_REASON})`,
    () => {
      // Thread CPU is read from Linux's /proc; elsewhere these tests are skipped.
      let base: string
      let schema: string | undefined
      let server: ServeProcess
      const keys: Record<string, string> = {}
      beforeAll(async () => {
        await ensureBuilt()
        base = mkdtempSync(join(tmpdir(), 'somnus-busy-'))
        schema = engine === 'postgres' ? freshSchemaName('busy') : undefined
        const db = schema === undefined ? join(base, 'db') : `${POSTGRES_URL}?schema=${schema}`
        // Tenants and the old big handoffs are put in place before the server opens the database
        // (an embedded one belongs to one process at a time).
        const { stores } = await openSqlServiceStores(
          schema === undefined
            ? { kind: 'pglite', dataDir: db }
            : { kind: 'postgres', url: POSTGRES_URL, schema },
        )
        const dependencies = {
          stores,
          clock: systemClock,
          ids: sequentialIds(),
          secret: randomSecret,
        }
        for (const tenantId of ['acme', 'globex']) {
          keys[tenantId] = (await createTenant(dependencies, { tenantId })).key.key
        }
        // Stored as the server would store them, minus the seconds of counting each costs here.
        await stores.handoffs.insert(
          [10, 11].map((seed) => ({
            ...newHandoff(dependencies, 'globex', {
              handoff_id: `big-${seed}`,
              created_at: OLD,
              learned: 'short',
            }),
            ...bigBody(seed, 200_000),
            becoming: unspacedWord(20_000, seed),
            // Counted here, this would cost the seconds saved above; any size over the budgets will do.
            full_tokens: 100_000,
          })),
        )
        await stores.close()
        // One CPU thread; each tenant one big handoff counted and one waiting at a time.
        const config = join(base, 'service.json')
        writeFileSync(config, JSON.stringify({ compression_threads: 1, tenant_cpu_queue: 1 }))
        server = await startServe(
          ['--db', db, '--config', config, '--port', '0', '--no-scheduler'],
          {
            cwd: base,
            env: { HOME: base, SOMNUS_DATA_DIR: join(base, 'data') },
          },
        )
      }, 300_000)
      afterAll(async () => {
        if (server) {
          server.child.kill('SIGTERM')
          await server.exited
        }
        if (schema !== undefined) await dropSchema(schema)
        rmSync(base, { recursive: true, force: true })
      })
      const send = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init)
      const post = (tenant: string, body: unknown) =>
        send('/api/v1/handoffs', json(keys[tenant] ?? '', body))

      it("counts a tenant's big handoffs off the thread that answers requests, /health answered meanwhile", async () => {
        const before = threadCpu(server.child.pid)
        const order: string[] = []
        const big = [1, 2].map((seed) =>
          track(order, `big ${seed}`, post('acme', bigBody(seed, 100_000))),
        )
        // By now the server holds the bodies: a server counting them itself answers nothing else.
        await pause(300)
        const health = await track(order, 'health', send('/health'))
        expect(health.status).toBe(200)
        const answers = await Promise.all(big)
        expect(answers.map((answer) => answer.status)).toEqual([201, 201])
        expect(order[0]).toBe('health')
        expectWorkOffMainThread(before, threadCpu(server.child.pid))
      })

      it("gives another tenant's big handoff its turn before the rest of one tenant's backlog", async () => {
        const order: string[] = []
        const first = [3, 4].map((seed) =>
          track(order, `first ${seed}`, post('acme', bigBody(seed, 150_000))),
        )
        await pause(100)
        const second = track(order, 'second', post('globex', bigBody(5, 30_000)))
        const answers = await Promise.all([...first, second])
        expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201])
        // The other tenant's one handoff goes before the second of the backlog, whichever it is.
        expect(order.indexOf('second')).toBeLessThan(2)
      })

      it('refuses big handoffs beyond what a tenant may have waiting with 429 and Retry-After, and stores the rest', async () => {
        const order: string[] = []
        const answers = await Promise.all(
          [6, 7, 8, 9].map((seed) => track(order, `${seed}`, post('acme', bigBody(seed, 30_000)))),
        )
        const stored = answers.filter((answer) => answer.status === 201)
        const refused = answers.filter((answer) => answer.status === 429)
        expect(stored.length).toBeGreaterThanOrEqual(2)
        expect(refused.length).toBeGreaterThanOrEqual(1)
        expect(stored.length + refused.length).toBe(4)
        for (const answer of refused) {
          expect(answer.headers.get('retry-after')).toBe('1')
          expect(answer.body.error.code).toBe('BUSY')
        }
        for (const answer of stored) {
          const id = answer.body.handoff.handoff_id
          const got = await send(`/api/v1/handoffs/${id}`, {
            headers: { authorization: `Bearer ${keys.acme}` },
          })
          expect(got.status).toBe(200)
        }
        // Small handoffs never wait for the threads.
        expect((await post('acme', { learned: 'small' })).status).toBe(201)
      })

      it('puts a creature with a long cycle to sleep off the thread that answers requests', async () => {
        // Ordinary sentences, a few hundred kB of them: seconds of extractive consolidation.
        const content = (seed: number) =>
          Array.from(
            { length: 2000 },
            (_, index) =>
              `On day ${index} I walked to place${(index * seed) % 997} with friend${index % 113} and we talked about topic${(index * 7 + seed) % 311}.`,
          ).join(' ')
        // Twelve messages: more than a light (short-cycle) dream takes.
        const events = Array.from({ length: 12 }, (_, seed) => ({
          type: 'message',
          role: 'user',
          content: content(seed + 1),
        }))
        // One event a request: together they are over the body limit.
        for (const event of events) {
          const logged = await send(
            '/api/v1/mind/events',
            json(keys.acme ?? '', { events: [event] }),
          )
          expect(logged.status).toBe(200)
        }
        const before = threadCpu(server.child.pid)
        const order: string[] = []
        const sleep = track(
          order,
          'sleep',
          send('/api/v1/mind/sleep', json(keys.acme ?? '', { seconds: 60 })),
        )
        // Soon after the sleep starts: its cycle is bounded by the prompt budget (well under a
        // second here), so a later probe could arrive after it and prove nothing.
        await pause(50)
        const health = await track(order, 'health', send('/health'))
        expect(health.status).toBe(200)
        const slept = await sleep
        expect(slept.status).toBe(200)
        expect(slept.body.consolidation).toBe('full')
        expect(order[0]).toBe('health')
        expectWorkOffMainThread(before, threadCpu(server.child.pid))
      })

      it("consolidates a tenant's big handoffs off the thread that answers requests", async () => {
        const before = threadCpu(server.child.pid)
        const order: string[] = []
        const run = track(
          order,
          'run',
          send(
            '/api/v1/consolidation/run?wait=true',
            json(keys.globex ?? '', { job_type: 'handoff_compression' }),
          ),
        )
        await pause(300)
        const health = await track(order, 'health', send('/health'))
        expect(health.status).toBe(200)
        expect((await run).status).toBe(200)
        expectWorkOffMainThread(before, threadCpu(server.child.pid))
        order.length = 0
        const got = await track(
          order,
          'get',
          send('/api/v1/handoffs/big-10', { headers: { authorization: `Bearer ${keys.globex}` } }),
        )
        expect(got.body.handoff.compression_level).toBe('quick_ref')
      })
    },
  )
}
