/** Requests the HTTP API suites send, and what a backing gives them. */
import type { ServiceApi } from '../../src/surfaces/http/service-api.ts'

/** Sends one request: in-process or over a socket, the suite does not care. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>

/** A response whose JSON the suite reads field by field. */
export interface Answer {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: the tests read fields of JSON answers they check
  json(): Promise<any>
}

/** What a backing gives the suite: a way to send, and keys of two tenants. */
export interface ApiFixture {
  send: Send
  /** Two tenants' keys: the suite checks that neither sees the other. */
  keys: { first: string; second: string }
  tenants: { first: string; second: string }
  /** Makes a key unusable, as `somnus tenant keys revoke` does. */
  revoke(key: string): Promise<void>
  service: ServiceApi
  close(): Promise<void>
}

export const json = (key: string | null, body: unknown, method = 'POST'): RequestInit => ({
  method,
  headers: {
    'content-type': 'application/json',
    ...(key === null ? {} : { authorization: `Bearer ${key}` }),
  },
  body: typeof body === 'string' ? body : JSON.stringify(body),
})
export const get = (key: string | null): RequestInit => ({
  headers: key === null ? {} : { authorization: `Bearer ${key}` },
})

/** A handoff body with every text field. */
export function handoffBody(session: string, overrides: Record<string, unknown> = {}) {
  return {
    session_id: session,
    with_whom: 'Dana',
    experienced: `Session ${session}: moved the ingest path to batched inserts.`,
    noticed: 'p99 dropped once the pool stopped starving.',
    learned: 'Measure before tuning.',
    story: 'We chased a slow endpoint to a single-row insert loop.',
    becoming: 'someone who measures before changing code',
    remember: 'The pool size matters more than the query.',
    significance: 0.7,
    tags: ['perf', 'sql'],
    ...overrides,
  }
}

/**
 * `app` whose in-process requests carry `Host: localhost`, as every client over a socket sends
 * one: without keys the API refuses a request with no Host.
 */
export function sentToLocalhost(app: {
  request: (path: string, init?: RequestInit) => Response | Promise<Response>
}): { request: (path: string, init?: RequestInit) => Promise<Response> } {
  return {
    request: async (path, init = {}) =>
      app.request(path, {
        ...init,
        headers: { host: 'localhost', ...(init.headers as Record<string, string> | undefined) },
      }),
  }
}
