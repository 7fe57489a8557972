/**
 * A loopback HTTP server for provider stand-ins: random port on 127.0.0.1, every request recorded,
 * each answered by a scripted reply. The protocol-specific stand-ins build on it.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request as the stand-in saw it. */
export interface RecordedRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  /** The parsed JSON body, or the raw text when it is not JSON. */
  body: unknown
  /** The raw body text, for "the key never appears" checks. */
  rawBody: string
}

/** Answers one request by writing to `response`; return nothing to leave the request hanging. */
export type RequestHandler = (request: RecordedRequest, response: ServerResponse) => void

/** A running stand-in. */
export interface StandInServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string
  /** Every request received, in order. */
  requests: RecordedRequest[]
  /** Stops the server and drops hanging connections. */
  close(): Promise<void>
}

/** Starts a loopback server that records each request and hands it to `handler`. */
export async function startStandInServer(handler: RequestHandler): Promise<StandInServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      let body: unknown = rawBody
      try {
        body = JSON.parse(rawBody)
      } catch {
        // Not JSON: keep the text, the test may want to see it.
      }
      const recorded: RecordedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body,
        rawBody,
      }
      requests.push(recorded)
      handler(recorded, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes a JSON answer. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(typeof body === 'string' ? body : JSON.stringify(body))
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** What a protocol stand-in does with one request. */
export type ScriptedReply =
  /** A successful model answer with this text. */
  | { text: string; usage?: { input: number; output: number }; truncated?: boolean }
  /** An error in the provider's own error body shape. */
  | { status: number; error: string; errorType?: string; headers?: Record<string, string> }
  /** Any status with this exact body text. */
  | { status: number; raw: string; headers?: Record<string, string> }
  /** Never answer (for timeouts). */
  | { hang: true }

/** Replies in order (the last one repeats), or a function of the request and its index. */
export type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply)

/** The reply `script` gives to the `index`-th request. */
export function scriptedReply(
  script: Script,
  request: RecordedRequest,
  index: number,
): ScriptedReply {
  if (typeof script === 'function') return script(request, index)
  const reply = script[Math.min(index, script.length - 1)]
  if (reply === undefined) throw new Error('stand-in script is empty')
  return reply
}
