/**
 * Puts the HTTP app on a socket. A server without API keys answers anyone who can reach it, so
 * it binds only to a loopback address; any other address needs auth.
 */
import { isIP } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { SomnusError } from '../../engine/core/errors.ts'
import { isLoopbackHost } from '../loopback-host.ts'

/** The seed's port. */
export const DEFAULT_PORT = 3456

/** A listening server. */
export interface RunningHttpServer {
  /** `http://host:port`, with the port actually bound (useful with port 0). */
  url: string
  port: number
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

/** Refuses a server without auth on an address others can reach. */
export function checkBindAddress(host: string, authRequired: boolean): void {
  if (authRequired || isLoopbackHost(host)) return
  throw new SomnusError(
    'USAGE',
    `Refusing to serve ${host} without API keys: anyone who reaches it could read every tenant. Leave --no-auth out (and make keys with somnus tenant create), or bind 127.0.0.1.`,
  )
}

/** Serves `fetch` on `host:port` and resolves once it listens. */
export async function startHttpServer(options: {
  fetch: (request: Request) => Response | Promise<Response>
  host: string
  port: number
  authRequired: boolean
}): Promise<RunningHttpServer> {
  checkBindAddress(options.host, options.authRequired)
  const server = createAdaptorServer({ fetch: options.fetch, hostname: options.host })
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new SomnusError(
              'USAGE',
              `Port ${options.port} on ${options.host} is taken; pass another with --port.`,
            )
          : error,
      )
    }
    server.once('error', failed)
    server.listen(options.port, options.host, () => {
      server.off('error', failed)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : options.port
  const shown = isIP(options.host) === 6 ? `[${options.host}]` : options.host
  return {
    url: `http://${shown}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Idle keep-alive connections would hold close() open until they time out.
        if ('closeIdleConnections' in server) server.closeIdleConnections()
      }),
  }
}
