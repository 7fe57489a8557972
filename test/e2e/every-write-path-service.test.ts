/**
 * Issue 18, item 5, the service half of every write path: the built `somnus serve` as a user runs
 * it, on PGlite in a data folder and on PostgreSQL (127.0.0.1:5432, a fresh schema), with the
 * whole secret corpus in every text field of a handoff and a decision, in a search query and in a
 * refused body. No corpus value may appear in any HTTP answer (POST, GET one, GET a page, search,
 * decisions, principles, errors), in what the server printed, or in any row of any table.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { ALL_SECRETS_TEXT, SECRET_SAMPLES } from '../support/secret-corpus.ts'
import { startServe } from '../support/serve-process.ts'
import {
  dropSchema,
  ENGINES,
  type Engine,
  engineAvailable,
  freshSchemaName,
  POSTGRES_URL,
} from '../support/service-database.ts'

/** The corpus values `text` still holds, by sample name (in any case). */
function leaks(text: string): string[] {
  const lower = text.toLowerCase()
  return SECRET_SAMPLES.filter((sample) => lower.includes(sample.secret.toLowerCase())).map(
    (sample) => sample.name,
  )
}

/**
 * Each sample short enough for a tag or a source (100 / 200 characters), on one line: the sentence,
 * since a bare `letmein` or a bare AWS secret is a secret only by the words around it.
 */
const SHORT_SECRETS = SECRET_SAMPLES.filter(
  (sample) => !sample.wrapped && sample.text.length <= 100 && !sample.text.includes('\n'),
).map((sample) => sample.text)

/** A handoff with the corpus in every text field, list and turn. */
function corpusHandoff(session: string) {
  return {
    session_id: `${session}-${SHORT_SECRETS[0]}`,
    with_whom: `Dana ${SHORT_SECRETS[0]}`,
    experienced: `Configured the deploy credentials:\n${ALL_SECRETS_TEXT}`,
    noticed: ALL_SECRETS_TEXT,
    learned: `We always deploy with these:\n${ALL_SECRETS_TEXT}`,
    story: ALL_SECRETS_TEXT,
    becoming: ALL_SECRETS_TEXT,
    remember: `Remember the deploy credentials: ${ALL_SECRETS_TEXT}`,
    significance: 0.9,
    tags: ['deploy', ...SHORT_SECRETS.slice(0, 20)],
    sources: SHORT_SECRETS.slice(0, 40),
    turns: SECRET_SAMPLES.map((sample, index) => ({
      id: `D1:${index + 1}`,
      speaker: 'Dana',
      text: `deploy credentials: ${sample.text}`,
    })),
  }
}

/** `somnus <args>` as a real process; resolves with its code and what it printed (stdout first). */
function somnus(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; printed: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [SOMNUS_BIN, ...args], {
        cwd,
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, printed: `${stdout}${stderr}` }))
    },
  )
}

/** Every row of every table, as JSON text, on the engine `location` names. */
async function everyRow(engine: Engine, location: string, schema: string): Promise<string[]> {
  const listTables = `SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' AND table_type = 'BASE TABLE'`
  const rowsOf = (table: string) =>
    `SELECT row_to_json(t)::text AS row FROM "${schema}"."${table}" t`
  if (engine === 'pglite') {
    const database = new PGlite(location)
    try {
      const tables = await database.query<{ table_name: string }>(listTables)
      const rows: string[] = []
      for (const { table_name } of tables.rows)
        for (const { row } of (await database.query<{ row: string }>(rowsOf(table_name))).rows)
          rows.push(`${table_name}: ${row}`)
      return rows
    } finally {
      await database.close()
    }
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    const tables = await client.query<{ table_name: string }>(listTables)
    const rows: string[] = []
    for (const { table_name } of tables.rows)
      for (const { row } of (await client.query<{ row: string }>(rowsOf(table_name))).rows)
        rows.push(`${table_name}: ${row}`)
    return rows
  } finally {
    await client.end()
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(
    `no corpus secret leaves the service (somnus serve on ${engine})`,
    () => {
      let home: string
      let schema: string
      let db: string
      const answers: Array<{ step: string; status: number; body: string }> = []
      let printed = ''
      let rows: string[] = []

      beforeAll(async () => {
        await ensureBuilt()
        home = mkdtempSync(join(tmpdir(), 'somnus-service-secrets-'))
        schema = engine === 'pglite' ? 'public' : freshSchemaName('secrets')
        db = engine === 'pglite' ? join(home, 'data') : `${POSTGRES_URL}?schema=${schema}`
        const env = { HOME: home }
        const created = await somnus(['tenant', 'create', 'acme', '--json', '--db', db], env, home)
        expect(created.code).toBe(0)
        const key = (JSON.parse(created.stdout).key as { key: string }).key
        const server = await startServe(['--db', db, '--port', '0', '--no-scheduler'], {
          cwd: home,
          env,
        })
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
        const call = async (step: string, path: string, body?: unknown) => {
          const response = await fetch(`${server.url}${path}`, {
            method: body === undefined ? 'GET' : 'POST',
            headers,
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          })
          const text = await response.text()
          answers.push({ step, status: response.status, body: text })
          return text
        }
        try {
          const posted = JSON.parse(
            await call('POST handoff', '/api/v1/handoffs', corpusHandoff('s-1')),
          ) as { handoff?: { handoff_id: string } }
          await call('POST second handoff', '/api/v1/handoffs', corpusHandoff('s-2'))
          await call('POST decision', '/api/v1/decisions', {
            decision: `Deploy with ${ALL_SECRETS_TEXT}`,
            rationale: ALL_SECRETS_TEXT,
            sources: SHORT_SECRETS.slice(0, 40),
          })
          await call('POST refused handoff', '/api/v1/handoffs', {
            ...corpusHandoff('s-3'),
            [SHORT_SECRETS[0] ?? 'x']: ALL_SECRETS_TEXT,
          })
          await call('POST refused decision', '/api/v1/decisions', {
            decision: SHORT_SECRETS[1],
            scope: SHORT_SECRETS[2],
          })
          await call('POST consolidation', '/api/v1/consolidation/run?wait=true', {
            job_type: 'handoff_compression',
            as_of: '2030-01-01',
          })
          await call('GET handoffs', '/api/v1/handoffs?limit=50')
          await call('GET handoff', `/api/v1/handoffs/${posted.handoff?.handoff_id ?? 'none'}`)
          await call('GET search', `/api/v1/search?q=${encodeURIComponent('deploy credentials')}`)
          for (const secret of SHORT_SECRETS.slice(0, 12))
            await call('GET search for a secret', `/api/v1/search?q=${encodeURIComponent(secret)}`)
          const idSecret = SECRET_SAMPLES.find((sample) => sample.name === 'GitHub classic token')
          await call('GET a secret as an id', `/api/v1/handoffs/${idSecret?.secret}`)
          await call('GET a secret as a decision id', `/api/v1/decisions/${idSecret?.secret}`)
          await call('GET a secret as a tenant', `/api/v1/handoffs?tenant_id=${idSecret?.secret}`)
          await call('GET decisions', '/api/v1/decisions?limit=50')
          await call('GET principles', '/api/v1/principles')
          await call('GET jobs', '/api/v1/consolidation/jobs')
          await call('GET stats', '/api/v1/consolidation/stats')
        } finally {
          server.child.kill('SIGTERM')
          await server.exited
          printed = `${server.output().stdout}${server.output().stderr}`
        }
        rows = await everyRow(engine, db, schema)
      }, 300_000)

      afterAll(async () => {
        if (engine === 'postgres' && schema !== undefined) await dropSchema(schema)
        if (home !== undefined) rmSync(home, { recursive: true, force: true })
      })

      it('stored the corpus handoffs and decision (the requests were taken)', () => {
        const statuses = Object.fromEntries(answers.map((answer) => [answer.step, answer.status]))
        expect(statuses).toMatchObject({
          'POST handoff': 201,
          'POST second handoff': 201,
          'POST decision': 201,
          'POST refused handoff': 400,
          'POST refused decision': 400,
          'GET handoffs': 200,
          'GET handoff': 200,
          'GET search': 200,
        })
        expect(answers.find((answer) => answer.step === 'GET handoff')?.body).toContain(
          '[redacted: ',
        )
      })

      it('answers no request with a corpus value', () => {
        const found = answers.map((answer) => ({ step: answer.step, leaks: leaks(answer.body) }))
        expect(found.filter((answer) => answer.leaks.length > 0)).toEqual([])
      })

      it('prints no corpus value', () => {
        expect(leaks(printed)).toEqual([])
      })

      it('stores no corpus value in any row of any table', () => {
        expect(rows.length).toBeGreaterThan(5)
        const found = rows.map((row) => ({ row: row.slice(0, 80), leaks: leaks(row) }))
        expect(found.filter((row) => row.leaks.length > 0)).toEqual([])
      })
    },
  )
}
