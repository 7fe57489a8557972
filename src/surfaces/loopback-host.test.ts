import { describe, expect, it } from 'vitest'
import { isLoopbackHost, isLoopbackHostHeader } from './loopback-host.ts'

describe('loopback names', () => {
  it('knows the loopback addresses and nothing else', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LocalHost'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of ['0.0.0.0', '192.168.1.4', '::', 'localhost.attacker.example', ''])
      expect(isLoopbackHost(host), host).toBe(false)
  })

  it('reads a Host header with or without a port, in any case', () => {
    for (const header of ['localhost', 'LOCALHOST:3456', '127.0.0.1:80', '[::1]:3456', '[::1]'])
      expect(isLoopbackHostHeader(header), header).toBe(true)
    for (const header of [
      undefined,
      '',
      ':3456',
      'attacker.example:80',
      'localhost.attacker.example',
      '127.0.0.1.nip.io',
      '[::1',
      '[::2]:80',
    ])
      expect(isLoopbackHostHeader(header), String(header)).toBe(false)
  })
})
