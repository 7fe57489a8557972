/**
 * `/openapi.json` (OpenAPI 3.1), generated from the routes' own zod schemas with zod's JSON
 * Schema output: the parameters from the params and query schemas, bodies and answers as
 * references to the named components of schemas/api-components.ts.
 */
import * as z from 'zod'
import type { AnyApiRoute } from './api-route.ts'
import { componentName, namedComponents } from './schemas/api-components.ts'

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

/** The OpenAPI document of `routes`. */
export function openApiDocument(
  routes: readonly AnyApiRoute[],
  info: { title: string; version: string; description: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      tags: route.tags,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      parameters: [...parameters('path', route.params), ...parameters('query', route.query)],
      responses: Object.fromEntries(
        Object.entries(route.answers).map(([status, answer]) => [
          status,
          {
            description: answer.description,
            ...(answer.schema
              ? { content: { 'application/json': { schema: reference(answer.schema) } } }
              : {}),
          },
        ]),
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
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key from `somnus tenant create` or `somnus tenant keys create`',
        },
      },
    },
    security: [{ apiKey: [] }],
  }
}
