/**
 * The request body limit, without the cost Hono's own middleware adds to every request: it reads
 * `c.req.raw.body`, which makes @hono/node-server build a full web `Request` and stream (a third
 * of the server's CPU per handoff under load). A body with a Content-Length is judged by that
 * header (Node's parser never reads past it), so the route later reads it by the adapter's direct
 * path; only a body of unknown length (chunked) is counted as it streams, by Hono's middleware.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'

/** Answers `tooLarge` for a body over `maxBytes`; lets every other request through. */
export function limitBody(maxBytes: number, tooLarge: (c: Context) => Response): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge })
  return async (c, next) => {
    const method = c.req.method
    // No body is read for these, and asking for one would build the full request.
    if (method === 'GET' || method === 'HEAD') return next()
    const length = c.req.header('content-length')
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(length, 10) > maxBytes ? tooLarge(c) : next()
    }
    return streamed(c, next)
  }
}
