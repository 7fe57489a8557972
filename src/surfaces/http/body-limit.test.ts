/** The body limit over a real socket: judged by Content-Length when sent, counted when chunked. */
import { request } from 'node:http'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { limitBody } from './body-limit.ts'
import { type RunningHttpServer, startHttpServer } from './start-http-server.ts'

const LIMIT = 1000
let server: RunningHttpServer

beforeAll(async () => {
  const app = new Hono()
  app.use(
    '*',
    limitBody(LIMIT, (c) => c.text('too large', 413)),
  )
  app.post('/echo', async (c) => c.text(`read ${(await c.req.text()).length}`))
  app.get('/echo', (c) => c.text('no body'))
  server = await startHttpServer({
    fetch: app.fetch,
    host: '127.0.0.1',
    port: 0,
    authRequired: false,
  })
})
afterAll(async () => {
  await server?.close()
})

/** Sends `chunks` as the body, chunked unless `length` is given. */
function send(
  method: string,
  chunks: string[],
  length?: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> =
      length === undefined
        ? { 'transfer-encoding': 'chunked' }
        : { 'content-length': String(length) }
    const outgoing = request(`${server.url}/echo`, { method, headers, agent: false }, (answer) => {
      let body = ''
      answer.setEncoding('utf8')
      answer.on('data', (chunk: string) => {
        body += chunk
      })
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }))
    })
    // The server may answer and close before the whole body is sent: that is the point.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    for (const chunk of chunks) outgoing.write(chunk)
    outgoing.end()
  })
}

describe('limitBody', () => {
  it('reads a body within the limit, whether its length is sent or not', async () => {
    expect(await send('POST', ['a'.repeat(600), 'b'.repeat(400)], 1000)).toEqual({
      status: 200,
      body: 'read 1000',
    })
    expect(await send('POST', ['a'.repeat(600), 'b'.repeat(400)])).toEqual({
      status: 200,
      body: 'read 1000',
    })
  })

  it('refuses a longer body by its Content-Length, and a chunked one as it is counted', async () => {
    expect((await send('POST', ['a'.repeat(1001)], 1001)).status).toBe(413)
    expect((await send('POST', ['a'.repeat(600), 'b'.repeat(401)])).status).toBe(413)
  })

  it('lets requests without a body through', async () => {
    expect(await send('GET', [], 0)).toEqual({ status: 200, body: 'no body' })
  })
})
