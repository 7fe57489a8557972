/**
 * A route of the API described once: its path, parameters, body and answers as zod schemas. The
 * same description validates requests (route-validators.ts) and becomes `/openapi.json`
 * (openapi-document.ts), so the two cannot drift apart.
 *
 * Why not @hono/zod-openapi: it extends the whole zod namespace when it loads, which keeps every
 * zod locale in the CLI's shared zod chunk and slows every command that parses with zod.
 */
import type * as z from 'zod'

/** One answer a route can give. */
export interface ApiAnswer {
  description: string
  /** The JSON body (a named component, see api-components.ts); none for an empty answer. */
  schema?: z.ZodType
  /** A body that is not JSON: its media type (`text/html`, `text/plain; version=0.0.4`). */
  contentType?: string
}

/** A route: where it is, what it takes, what it answers. */
export interface ApiRoute<
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
> {
  method: 'get' | 'post' | 'delete'
  /** OpenAPI style: `/api/v1/handoffs/{handoff_id}`. */
  path: string
  tags: string[]
  summary: string
  description?: string
  params?: Params
  query?: Query
  body?: Body
  /** False lets a request without a body through as `{}` (schema defaults apply). */
  bodyRequired?: boolean
  /** True for a route that needs no API key (`/health`, `/openapi.json`...). */
  open?: boolean
  answers: Record<number, ApiAnswer>
}

/** Any route, for lists of them. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds routes of every schema type
export type AnyApiRoute = ApiRoute<any, any, any>
