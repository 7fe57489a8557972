/**
 * Issue 18 item 8: a NUL in any field that reaches the database must never be an HTTP 500. Driven by
 * the server's own /openapi.json, so a field added later is covered without editing this test:
 * every path id, every query parameter and every text field of every request body (lists and the
 * fields of their items too) gets a NUL, over a real socket on PGlite and on PostgreSQL. Each
 * answer is a 400 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Answer, get, handoffBody, json } from '../support/http-api-requests.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'
import { ENGINES, engineAvailable } from '../support/service-database.ts'

const NUL = '\u0000'

/** The part of an OpenAPI schema this test reads. */
interface Schema {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
}

interface Operation {
  parameters?: Array<{ name: string; in: 'path' | 'query' }>
  requestBody?: { content: Record<string, { schema: Schema }> }
}

/** A valid body for each request schema, to which one NUL is added. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  HandoffInput: { ...handoffBody('s-nul'), turns: [{ id: 'D1:1', speaker: 'Dana', text: 'hi' }] },
  DecisionInput: { decision: 'Measure first.' },
  RunRequest: {},
}

/** The types a schema allows (nullable ones list two). */
function typesOf(schema: Schema): string[] {
  const own = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  return [...own, ...(schema.anyOf ?? []).flatMap(typesOf)]
}

/** The item schema of an array schema (directly or inside anyOf). */
function itemsOf(schema: Schema): Schema | undefined {
  return schema.items ?? schema.anyOf?.find((option) => option.items)?.items
}

/** Each way to put a NUL in `body` under `schema`: the body and the field the answer must name. */
function nulBodies(
  body: Record<string, unknown>,
  schema: Schema,
): Array<{ body: Record<string, unknown>; field: string }> {
  const cases: Array<{ body: Record<string, unknown>; field: string }> = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const types = typesOf(property)
    if (types.includes('string')) cases.push({ body: { ...body, [name]: `a${NUL}b` }, field: name })
    const items = itemsOf(property)
    if (items === undefined) continue
    if (typesOf(items).includes('string'))
      cases.push({ body: { ...body, [name]: ['ok', `a${NUL}`] }, field: `${name}.1` })
    const current = body[name]
    if (items.properties !== undefined && Array.isArray(current) && current.length > 0) {
      for (const inner of nulBodies(current[0] as Record<string, unknown>, items))
        cases.push({ body: { ...body, [name]: [inner.body] }, field: `${name}.0.${inner.field}` })
    }
  }
  return cases
}

for (const engine of ENGINES) {
  describe.skipIf(!engineAvailable(engine))(
    `a NUL in any field on ${engine}, over a socket`,
    () => {
      let api: HttpServiceFixture
      const send = (path: string, init?: RequestInit) => api.send(path, init) as Promise<Answer>
      beforeAll(async () => {
        api = await openHttpService(engine, 'socket')
      })
      afterAll(async () => {
        await api?.close()
      })

      it('answers 400 naming the field for every path id, query parameter and body field', async () => {
        const key = api.keys.first
        const document = (await (await send('/openapi.json')).json()) as {
          paths: Record<string, Record<string, Operation>>
          components: { schemas: Record<string, Schema> }
        }
        const requests: Array<{ method: string; path: string; init: RequestInit; field: string }> =
          []
        for (const [template, operations] of Object.entries(document.paths)) {
          if (!template.startsWith('/api/')) continue
          for (const [method, operation] of Object.entries(operations)) {
            const params = operation.parameters ?? []
            const concrete = template.replace(/\{(\w+)\}/g, 'some-id')
            const init = (body?: unknown): RequestInit =>
              body === undefined
                ? { ...get(key), method: method.toUpperCase() }
                : { ...json(key, body), method: method.toUpperCase() }
            const reference = operation.requestBody?.content['application/json']?.schema.$ref
            const schemaName = reference?.split('/').pop()
            const validBody = schemaName === undefined ? undefined : VALID_BODIES[schemaName]
            if (schemaName !== undefined)
              expect(validBody, `a valid body for ${schemaName}`).toBeDefined()
            for (const param of params.filter((candidate) => candidate.in === 'path'))
              requests.push({
                method,
                path: template.replace(`{${param.name}}`, 'a%00b').replace(/\{(\w+)\}/g, 'some-id'),
                init: init(validBody),
                field: param.name,
              })
            for (const param of params.filter((candidate) => candidate.in === 'query'))
              requests.push({
                method,
                path: `${concrete}?${param.name}=1%00`,
                init: init(validBody),
                field: param.name,
              })
            if (validBody !== undefined && schemaName !== undefined) {
              const schema = document.components.schemas[schemaName] ?? {}
              for (const { body, field } of nulBodies(validBody, schema))
                requests.push({ method, path: concrete, init: init(body), field })
            }
          }
        }
        expect(requests.length).toBeGreaterThan(40)
        const wrong: unknown[] = []
        for (const request of requests) {
          const response = await send(request.path, request.init)
          const body = (await response.json()) as { error?: { field?: string; message?: string } }
          const right =
            response.status === 400 &&
            body.error?.field === request.field &&
            body.error.message?.includes(request.field) === true &&
            !body.error.message.includes(NUL)
          if (!right)
            wrong.push({
              request: `${request.method} ${request.path} ${request.field}`,
              status: response.status,
              error: body.error,
            })
        }
        expect(wrong).toEqual([])
      })
    },
  )
}
