/**
 * A route of the API described once: its path, parameters, body and answers as zod schemas. The
 * same description validates requests (addApiRoute) and becomes `/openapi.json`
 * (openapi-document.ts), so the two cannot drift apart.
 *
 * Why not @hono/zod-openapi: it extends the whole zod namespace when it loads, which keeps every
 * zod locale in the CLI's shared zod chunk and slows every command that parses with zod.
 */
import type { Context, Hono } from 'hono'
import * as z from 'zod'
import { unstorableText } from '../../core/service/client-values.ts'
import type { ApiEnv } from './api-key-auth.ts'
import { errorBody, validationFailure } from './http-errors.ts'

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

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined

/** What a handler receives: the request's parts, parsed. */
export interface ApiInput<Params, Query, Body> {
  params: Parsed<Params>
  query: Parsed<Query>
  body: Parsed<Body>
}

/** Registers `route` on `app` with `handler`, behind validation that answers 400/415 itself. */
export function addApiRoute<
  Params extends z.ZodObject | undefined,
  Query extends z.ZodObject | undefined,
  Body extends z.ZodType | undefined,
>(
  app: Hono<ApiEnv>,
  route: ApiRoute<Params, Query, Body>,
  handler: (
    input: ApiInput<Params, Query, Body>,
    c: Context<ApiEnv>,
  ) => Promise<Response> | Response,
): void {
  const honoPath = route.path.replace(/\{(\w+)\}/g, ':$1')
  // An unknown parameter is refused, not ignored: `POST /run?tenant_id=X` must not quietly run
  // the key's own tenant, and a misspelt `?limt=5` should say so.
  const querySchema = (route.query ?? z.object({})).strict()
  app.on(route.method.toUpperCase(), honoPath, async (c) => {
    const rawParams = c.req.param() as Record<string, string>
    const rawQuery = c.req.query()
    const refused =
      unstorableRefusal(c, rawParams, 'path') ?? unstorableRefusal(c, rawQuery, 'query')
    if (refused) return refused
    const params = route.params?.safeParse(rawParams)
    if (params && !params.success) return validationFailure(c, params.error, 'param')
    const query = querySchema.safeParse(rawQuery)
    if (!query.success) return validationFailure(c, query.error, 'query')
    let body: { success: true; data: unknown } | undefined
    if (route.body !== undefined) {
      const raw = await readJsonBody(c, route.bodyRequired ?? true)
      if (raw instanceof Response) return raw
      const refusedBody = unstorableRefusal(c, raw, 'body')
      if (refusedBody) return refusedBody
      const parsed = route.body.safeParse(raw)
      if (!parsed.success) return validationFailure(c, parsed.error, 'json')
      body = parsed
    }
    return handler(
      {
        params: params?.data,
        query: query?.data,
        body: body?.data,
      } as ApiInput<Params, Query, Body>,
      c,
    )
  })
}

/**
 * The 400 for text no database column can hold (a NUL character, an unpaired surrogate) anywhere
 * in a request part, naming the field, before any schema or store sees it.
 */
function unstorableRefusal(
  c: Context,
  value: unknown,
  where: 'path' | 'query' | 'body',
): Response | null {
  const found = unstorableText(value)
  if (found === null) return null
  const field = found.path === '' ? where : found.path
  const subject = field === where ? where : `${field} (in the ${where})`
  return c.json(
    errorBody('INVALID_INPUT', `${subject}: ${found.problem}; remove it.`, { field }),
    400,
  )
}

/** UTF-8 that refuses malformed bytes (a leading byte-order mark is dropped, as JSON allows). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true })

/** The request's JSON body (`{}` when absent and allowed), or the 400/415 answer. */
async function readJsonBody(c: Context, required: boolean): Promise<unknown> {
  let text: string
  try {
    text = STRICT_UTF8.decode(await c.req.arrayBuffer())
  } catch {
    // Decoded leniently, each bad byte would be stored as U+FFFD: the client's text, lost.
    return c.json(
      errorBody('INVALID_INPUT', 'body: not valid UTF-8; send the JSON encoded as UTF-8.', {
        field: 'body',
      }),
      400,
    )
  }
  const type = c.req.header('content-type')
  if (text === '' && !required) return {}
  if (type === undefined || !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return c.json(
      errorBody('UNSUPPORTED_MEDIA_TYPE', 'body: send it with Content-Type: application/json.', {
        field: 'Content-Type',
      }),
      415,
    )
  }
  if (text === '') {
    return c.json(
      errorBody('INVALID_INPUT', 'body: missing; send one JSON object.', { field: 'body' }),
      400,
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    return c.json(
      errorBody('INVALID_INPUT', `body: not valid JSON (${(error as Error).message}).`, {
        field: 'body',
      }),
      400,
    )
  }
}
