/**
 * `/openapi.json` (OpenAPI 3.1), generated from the routes' own zod schemas with zod's JSON
 * Schema output: the parameters from the params and query schemas, bodies and answers as
 * references to the named components of schemas/api-components.ts.
 */
import * as z from 'zod'
import type { AnyApiRoute, ApiAnswer } from './api-route.ts'
import { componentName, namedComponents } from './schemas/api-components.ts'
import { ErrorResponseSchema } from './schemas/common-schemas.ts'

const COMPONENT_URI = (id: string) => `#/components/schemas/${id}`

type JsonSchema = Record<string, unknown>

/** A JSON Schema without the `$schema` and `$id` keys zod adds at the top. */
function bare(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema
  return rest
}

/** Every named component, each read as it is used (request bodies as input). */
function components(): Record<string, JsonSchema> {
  const byIo = { input: z.registry<{ id: string }>(), output: z.registry<{ id: string }>() }
  for (const [schema, name] of namedComponents()) byIo[name.io].add(schema, { id: name.id })
  const result: Record<string, JsonSchema> = {}
  for (const io of ['input', 'output'] as const) {
    const generated = z.toJSONSchema(byIo[io], { io, uri: COMPONENT_URI, unrepresentable: 'any' })
    for (const [id, schema] of Object.entries(generated.schemas)) result[id] = bare(schema)
  }
  return result
}

/** A reference to `schema`'s component (every body and answer is one). */
function reference(schema: z.ZodType): JsonSchema {
  const name = componentName(schema)
  if (name === undefined) return bare(z.toJSONSchema(schema, { unrepresentable: 'any' }))
  return { $ref: COMPONENT_URI(name.id) }
}

/** The parameters of one place (`path` or `query`), one per key of its object schema. */
function parameters(where: 'path' | 'query', schema: z.ZodObject | undefined) {
  if (schema === undefined) return []
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = bare(z.toJSONSchema(field as z.ZodType, { io: 'input', unrepresentable: 'any' }))
    const { description, ...rest } = json
    return {
      name,
      in: where,
      required: where === 'path' || !(field as z.ZodType).isOptional(),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    }
  })
}

/** Answers any operation can give, besides its own: described once here, not on every route. */
const SERVER_ANSWERS: Record<number, string> = {
  500: 'The server failed; its log has the details, the answer none',
  503: 'The database, or a creature folder another process holds, is unavailable for now: retry later',
}

/** The answers of `route`, with those every route of its kind can give. */
function answersOf(route: AnyApiRoute): Record<string, ApiAnswer> {
  const implied: Record<number, string> = { ...SERVER_ANSWERS }
  if (!route.open) implied[401] = 'No valid API key'
  if (route.body !== undefined) implied[413] = 'Body larger than the server accepts (--max-body)'
  const answers: Record<string, ApiAnswer> = {}
  for (const [status, answer] of Object.entries(route.answers)) answers[status] = answer
  for (const [status, description] of Object.entries(implied)) {
    answers[status] ??= { description, schema: ErrorResponseSchema }
  }
  return answers
}

/** An answer as OpenAPI describes it. */
function response(answer: ApiAnswer) {
  if (answer.contentType !== undefined) {
    return {
      description: answer.description,
      content: { [answer.contentType]: { schema: { type: 'string' } } },
    }
  }
  return {
    description: answer.description,
    ...(answer.schema
      ? { content: { 'application/json': { schema: reference(answer.schema) } } }
      : {}),
  }
}

/** `post /api/v1/consolidation/run` → `postApiV1ConsolidationRun`. */
function operationId(route: AnyApiRoute): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter((word) => word !== '')
  return route.method + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('')
}

/** The OpenAPI document of `routes`. */
export function openApiDocument(
  routes: readonly AnyApiRoute[],
  info: { title: string; version: string; description: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      operationId: operationId(route),
      tags: route.tags,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.open ? { security: [] } : {}),
      parameters: [...parameters('path', route.params), ...parameters('query', route.query)],
      responses: Object.fromEntries(
        Object.entries(answersOf(route))
          .sort(([a], [b]) => Number(a) - Number(b))
          .map(([status, answer]) => [status, response(answer)]),
      ),
    }
    if (route.body !== undefined) {
      operation.requestBody = {
        required: route.bodyRequired ?? true,
        content: { 'application/json': { schema: reference(route.body) } },
      }
    }
    paths[route.path] = { ...paths[route.path], [route.method]: operation }
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API key (smn_…) from `somnus tenant create` or `somnus tenant keys create`, as Authorization: Bearer <key>',
        },
        headerKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The same API key, as X-API-Key: <key>',
        },
      },
    },
    // Either header will do.
    security: [{ bearerKey: [] }, { headerKey: [] }],
  }
}
