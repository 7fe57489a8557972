// Completes package-lock.json with the platform-specific optional packages (e.g. @biomejs/cli-*)
// that npm could not resolve because the registry mirror these machines use only carries the
// Linux builds. Without the entries, `npm ci` refuses the lock as "out of sync"; with them, it
// skips the other platforms by their os/cpu/libc fields, as it would with a complete lock.
// Run after `npm install` whenever `npm ci` reports "Missing: <package>@ from lock file".
import { readFileSync, writeFileSync } from 'node:fs'

const PLATFORM = /-(android|darwin|freebsd|linux|win32)-(arm64|x64|ia32|arm)(-musl|-gnu)?$/
const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const added = []
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${name}`
    const platform = PLATFORM.exec(name)
    if (lock.packages[target] || !platform || !/^\d+\.\d+\.\d+/.test(version)) continue
    const [, os, cpu, libc] = platform
    lock.packages[target] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      ...(libc ? { libc: [libc.slice(1) === 'musl' ? 'musl' : 'glibc'] } : {}),
    }
    added.push(`${name}@${version} (for ${key.replace(/^node_modules\//, '')})`)
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === '' ? -1 : b === '' ? 1 : a.localeCompare(b),
  ),
)
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(
  added.length === 0 ? 'package-lock.json already complete' : `added:\n  ${added.join('\n  ')}`,
)
