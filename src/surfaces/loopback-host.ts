/**
 * Loopback names, for the servers that must answer only this machine: the HTTP API without keys
 * and the dashboard (a DNS-rebinding page reaches 127.0.0.1 under its own name, which the Host
 * header gives away).
 */
import { isIP } from 'node:net'

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  // Host names are case-insensitive: `LOCALHOST` is `localhost`.
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./i.test(bare)
  return false
}

/**
 * True when a request's Host header (`name`, `name:port`, `[v6]:port`) names a loopback address.
 * No header (HTTP/1.0) says nothing of where the client was sent, so it is refused.
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (header === undefined) return false
  const name = header.startsWith('[')
    ? header.slice(0, header.indexOf(']') + 1)
    : header.split(':')[0]
  return name !== undefined && name !== '' && isLoopbackHost(name)
}
