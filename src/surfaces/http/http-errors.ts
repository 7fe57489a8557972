/**
 * The one place HTTP answers go wrong: schema failures, malformed or oversized bodies, Somnus's
 * own errors and anything unexpected all become `{ success: false, error }` with a status that
 * says whose mistake it was. A client's mistake is never a 500.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ZodError } from 'zod'
import { isSomnusError, type SomnusErrorCode } from '../../engine/core/errors.ts'
import { escapeLogText } from '../../engine/core/log-text.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { ErrorResponse } from './schemas/common-schemas.ts'

/**
 * An error body, ready to send. Its message and field are redacted: both may quote the client's
 * own text (an unknown field's name), and an answer is a way out like any other.
 */
export function errorBody(
  code: string,
  message: string,
  extra: { field?: string; valid_values?: string[] } = {},
): ErrorResponse {
  const field = extra.field === undefined ? {} : { field: redactSecrets(extra.field) }
  return { success: false, error: { code, message: redactSecrets(message), ...extra, ...field } }
}

/** The 400 for a request that failed its schema: the first problem, named by its field. */
export function validationFailure(
  c: Context,
  error: ZodError,
  target: 'json' | 'query' | 'param' | string,
): Response {
  const issue = error.issues[0]
  const path = issue?.path.map(String).join('.') ?? ''
  const field = path === '' ? (target === 'json' ? 'body' : target) : path
  const extra: { field: string; valid_values?: string[] } = { field }
  let message = issue?.message ?? 'is not valid'
  if (issue?.code === 'invalid_value') {
    extra.valid_values = issue.values.map(String)
    message = `must be one of ${extra.valid_values.join(', ')}`
  } else if (issue?.code === 'unrecognized_keys') {
    extra.field = issue.keys[0] ?? field
    message =
      target === 'query'
        ? 'unknown parameter; the parameters are listed in /openapi.json'
        : 'unknown field; the fields are listed in /openapi.json'
  }
  const where = target === 'json' ? 'body' : target === 'param' ? 'path' : target
  const subject = extra.field === where ? where : `${extra.field} (in the ${where})`
  return c.json(errorBody('INVALID_INPUT', `${subject}: ${message}`, extra), 400)
}

/** The status a deliberate Somnus error answers with. */
const STATUS_FOR_CODE: Partial<Record<SomnusErrorCode, ContentfulStatusCode>> = {
  USAGE: 400,
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  STATE_LOCKED: 503,
  // A wait the server gave up on as it stops (POST /run?wait=true): the work goes on elsewhere.
  ABORTED: 503,
  BUSY: 429,
}

/** The 413 for a body over `maxBytes`, naming `body`. */
export function bodyTooLarge(c: Context, maxBytes: number): Response {
  // The rest of the body is never read, so this connection cannot carry another request.
  c.header('Connection', 'close')
  return c.json(
    errorBody('BODY_TOO_LARGE', `body: larger than the ${maxBytes} bytes the server accepts.`, {
      field: 'body',
    }),
    413,
  )
}

/**
 * True for an error that says the database cannot be reached (refused or dropped connections,
 * PostgreSQL's connection and shutdown states, a closed embedded database): the client may retry,
 * so it is a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code))
      return true
    // 08xxx: connection exceptions; 57P01-57P03: the server is shutting down or starting.
    if (/^08|^57P0[1-3]$/.test(code)) return true
  }
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|PGlite is closed|Client has encountered a connection error/i.test(
    message,
  )
}

/** Node's error for a request whose client closed the connection before its body ended. */
function isClientGone(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message === 'aborted' &&
    (error as NodeJS.ErrnoException).code === 'ECONNRESET'
  )
}

/** Whatever a handler or middleware threw, as an answer; unexpected errors are logged, not shown. */
export function errorResponse(
  c: Context,
  error: unknown,
  log: (line: string) => void = (line) => process.stderr.write(line),
): Response {
  if (error instanceof HTTPException) return httpExceptionResponse(c, error)
  if (isSomnusError(error)) {
    const status = STATUS_FOR_CODE[error.code] ?? 500
    const field = typeof error.details?.field === 'string' ? error.details.field : undefined
    // Work waiting its turn is done within seconds: a client retrying sooner only queues again.
    if (status === 429) c.header('Retry-After', '1')
    return c.json(
      errorBody(error.code, error.message, field === undefined ? {} : { field }),
      status,
    )
  }
  if (isClientGone(error)) {
    // Nobody is left to answer, and it is not the server's failure: no log line (a client that
    // hangs up mid-body, a thousand times, would otherwise write a thousand stack traces).
    return c.json(
      errorBody('INVALID_INPUT', 'body: the client closed the connection before sending it all.', {
        field: 'body',
      }),
      400,
    )
  }
  // One line, escaped: the path is the client's (decoded from %0A and the like) and so may be the
  // error's text, and neither may start a log line of its own.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error)
  log(
    `somnus serve: ${escapeLogText(c.req.method)} ${escapeLogText(redactSecrets(c.req.path))} failed: ${escapeLogText(redactSecrets(detail))}\n`,
  )
  if (isDatabaseUnavailable(error)) {
    c.header('Retry-After', '5')
    return c.json(
      errorBody('UNAVAILABLE', 'The database is unavailable for now; retry in a few seconds.'),
      503,
    )
  }
  return c.json(errorBody('INTERNAL', 'The server failed; its log has the details.'), 500)
}

function httpExceptionResponse(c: Context, error: HTTPException): Response {
  const code = error.status < 500 ? 'INVALID_INPUT' : 'HTTP_ERROR'
  return c.json(errorBody(code, error.message), error.status)
}
