/**
 * A route's request checks as `hono/validator` middleware, built from its zod route object
 * (api-route.ts): path and query first, then the body. Each answers 400/415 itself; a handler
 * reads the parsed parts with `c.req.valid('param' | 'query' | 'json')`, and the chained app's
 * types carry them to a typed `hc` client.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { validator } from 'hono/validator'
import * as z from 'zod'
import { unstorableText } from '../../service/service-values.ts'
import type { ApiRoute } from './api-route.ts'
import { errorBody, validationFailure } from './http-errors.ts'

type Input<Schema> = Schema extends z.ZodType ? z.input<Schema> : Record<string, never>
type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined

/** A validator of one request part: what a client sends (`in`) and what a handler reads (`out`). */
type PartValidator<Part extends 'param' | 'query' | 'json', Schema> = MiddlewareHandler<
  // biome-ignore lint/suspicious/noExplicitAny: validators run in every route's environment
  any,
  string,
  { in: { [K in Part]: Input<Schema> }; out: { [K in Part]: Output<Schema> } }
>

/** A path without parameters takes none from a client. */
type ParamsValidator<Params> = Params extends z.ZodObject
  ? PartValidator<'param', Params>
  : AnyEnvMiddleware

// biome-ignore lint/suspicious/noExplicitAny: validators run in every route's environment
type AnyEnvMiddleware = MiddlewareHandler<any>

/**
 * The path's parameters. Text no column can hold is refused in the path, then in the query,
 * before any schema sees either.
 */
export function validateParams<Params extends z.ZodObject | undefined>(
  route: ApiRoute<Params, z.ZodObject | undefined, z.ZodType | undefined>,
): ParamsValidator<Params> {
  return validator('param', (_value, c) => {
    const rawParams = c.req.param() as Record<string, string>
    const refused =
      unstorableRefusal(c, rawParams, 'path') ?? unstorableRefusal(c, c.req.query(), 'query')
    if (refused) return refused
    if (route.params === undefined) return undefined
    const params = route.params.safeParse(rawParams)
    return params.success ? params.data : validationFailure(c, params.error, 'param')
  }) as ParamsValidator<Params>
}

/**
 * The query. An unknown parameter is refused, not ignored: `POST /run?tenant_id=X` must not
 * quietly run the key's own tenant, and a misspelt `?limt=5` should say so.
 */
export function validateQuery<Query extends z.ZodObject | undefined>(
  route: ApiRoute<z.ZodObject | undefined, Query, z.ZodType | undefined>,
): PartValidator<'query', Query> {
  const querySchema = (route.query ?? z.object({})).strict()
  return validator('query', (_value, c) => {
    // A repeated parameter (`limit=1&limit=2`) is refused: which one counts would be a guess, and
    // a proxy and this server could guess differently.
    const repeated = Object.entries(c.req.queries()).find(([, values]) => values.length > 1)
    if (repeated !== undefined) {
      const [name] = repeated
      return c.json(
        errorBody('INVALID_INPUT', `${name}: given more than once; send it once.`, {
          field: name,
        }),
        400,
      )
    }
    const query = querySchema.safeParse(c.req.query())
    return query.success ? query.data : validationFailure(c, query.error, 'query')
  }) as PartValidator<'query', Query>
}

/**
 * The JSON body: strict UTF-8, `Content-Type: application/json` (or `…+json`), storable text,
 * then the route's schema. Read and parsed once here, before hono's validator runs (it would
 * decode bad bytes as U+FFFD and answer malformed JSON in its own words), and handed to it as the
 * request's `json()`.
 */
export function validateBody<Body extends z.ZodType>(
  route: ApiRoute<z.ZodObject | undefined, z.ZodObject | undefined, Body>,
): PartValidator<'json', Body> {
  const schema = route.body as z.ZodType
  const required = route.bodyRequired ?? true
  // `c.req.json()` rather than the value hono passes: hono parses only the media types it knows,
  // and this route takes every one readJsonBody accepts.
  const validate = validator('json', async (_value, c) => {
    const body = schema.safeParse(await c.req.json())
    return body.success ? body.data : validationFailure(c, body.error, 'json')
  })
  return (async (c, next) => {
    const raw = await readJsonBody(c, required)
    if (raw instanceof Response) return raw
    const refused = unstorableRefusal(c, raw, 'body')
    if (refused) return refused
    c.req.json = (() => Promise.resolve(raw)) as typeof c.req.json
    return validate(c, next)
  }) as PartValidator<'json', Body>
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
