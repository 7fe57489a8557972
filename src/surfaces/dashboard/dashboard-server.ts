/**
 * The local dashboard server (`somnus dashboard`): node:http on 127.0.0.1 only, GET only, the
 * page's files and one JSON endpoint per view part. Defences for a page that shows attacker text
 * from a brain: a strict CSP (scripts from this origin only, no inline code), a Host header that
 * must name the loopback (a DNS-rebinding page cannot read the answers), no caching of data, and
 * every string redacted for secrets on the way out.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { isLoopbackHostHeader } from '../loopback-host.ts'
import type { DashboardAssets, DashboardView } from './dashboard-assets.ts'

/** A JSON endpoint: the answer for the query, or null for 404. */
export type DashboardEndpoint = (query: URLSearchParams) => Promise<unknown>

/** What the server serves. */
export interface DashboardServerOptions {
  port: number
  view: DashboardView
  assets: DashboardAssets
  /** Endpoints by name: `/api/<name>`. */
  api: Record<string, DashboardEndpoint>
  /** Reports an endpoint's failure (the page gets a 500 with the message). */
  warn: (message: string) => void
}

/** A started server. */
export interface RunningDashboard {
  url: string
  close(): Promise<void>
}

/** The page's Content-Security-Policy: its own scripts, styles and data only. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers every answer carries. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': DASHBOARD_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** Every string in `value` with secrets redacted (brain text can hold a pasted key). */
export function redactedJson(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value)
  if (Array.isArray(value)) return value.map(redactedJson)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = redactedJson(item)
    return out
  }
  return value
}

/** Starts the server on 127.0.0.1:`port` (0: any free port). */
export async function startDashboardServer(
  options: DashboardServerOptions,
): Promise<RunningDashboard> {
  const server = createServer((request, response) => {
    void answer(options, request, response)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

async function answer(
  options: DashboardServerOptions,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
    response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...extra })
    response.end(request.method === 'HEAD' ? undefined : body)
  }
  const json = (status: number, value: unknown) =>
    send(status, 'application/json; charset=utf-8', JSON.stringify(value), {
      'Cache-Control': 'no-store',
    })
  if (!isLoopbackHostHeader(request.headers.host)) {
    return json(421, {
      error: {
        code: 'NOT_LOOPBACK',
        message: 'The dashboard answers only to 127.0.0.1 or localhost.',
      },
    })
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return send(405, 'text/plain; charset=utf-8', 'The dashboard is read-only: GET only.', {
      Allow: 'GET, HEAD',
    })
  }
  const url = new URL(request.url ?? '/', 'http://127.0.0.1')
  if (url.pathname === '/')
    return send(200, 'text/html; charset=utf-8', options.assets.html(options.view))
  const name = url.pathname.slice(1)
  // Own keys only: `/constructor` names no file.
  const asset = Object.hasOwn(options.assets.files, name) ? options.assets.files[name] : undefined
  if (asset) return send(200, asset.type, asset.body, { 'Cache-Control': 'no-cache' })
  const endpointName = url.pathname.slice('/api/'.length)
  const endpoint =
    url.pathname.startsWith('/api/') && Object.hasOwn(options.api, endpointName)
      ? options.api[endpointName]
      : undefined
  if (!endpoint) return json(404, { error: { code: 'NOT_FOUND', message: 'No such page.' } })
  try {
    const value = await endpoint(url.searchParams)
    if (value === null) return json(404, { error: { code: 'NOT_FOUND', message: 'Not found.' } })
    return json(200, redactedJson(value))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    options.warn(`dashboard ${url.pathname}: ${message}`)
    return json(500, { error: { code: 'FAILED', message: redactSecrets(message) } })
  }
}
