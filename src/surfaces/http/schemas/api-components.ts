/**
 * The named schemas of `/openapi.json` (`#/components/schemas/<name>`). Request bodies are
 * described as clients send them (defaults optional), answers as the server sends them.
 */
import type * as z from 'zod'

/** How a named schema is read: a request body (input) or an answer (output). */
export interface ComponentName {
  id: string
  io: 'input' | 'output'
}

const named = new Map<z.ZodType, ComponentName>()

/** Names `schema` as a request body component. */
export function requestComponent<Schema extends z.ZodType>(schema: Schema, id: string): Schema {
  named.set(schema, { id, io: 'input' })
  return schema
}

/** Names `schema` as an answer component. */
export function answerComponent<Schema extends z.ZodType>(schema: Schema, id: string): Schema {
  named.set(schema, { id, io: 'output' })
  return schema
}

/** The name of `schema`, if it has one. */
export function componentName(schema: z.ZodType): ComponentName | undefined {
  return named.get(schema)
}

/** Every named schema. */
export function namedComponents(): Array<[z.ZodType, ComponentName]> {
  return [...named]
}
