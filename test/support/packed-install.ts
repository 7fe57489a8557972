/**
 * Somnus installed into a project the way a user installs it from this repository: `npm pack`,
 * then `npm i -D <tarball>` in the project, so that `somnus` is not on PATH.
 *
 * The tarball is packed once per build: its name carries a hash of what it holds (bin, dist,
 * plugin, templates, package.json), and test files running in parallel share it under a lock.
 * The install stays offline: npm resolves the dependencies from a lockfile seeded with the
 * versions this repository's package-lock.json pins (with their tarball URLs, which npm's
 * `omit-lockfile-registry-resolved` may have left out), and fetches them from the npm cache that
 * `npm ci` filled. Measured here: ~1 s to pack, ~5 s to install. Without a usable cache the
 * install falls back to what npm would lay out: the package unpacked into node_modules/somnus,
 * its dependencies linked from this repository's node_modules, and the bin link.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ensureBuilt } from './build-once.ts'
import { REPO_ROOT } from './shared-data.ts'

/** A PATH with the usual system folders and no Somnus (node lives in /usr/bin here and on CI). */
export const PATH_WITHOUT_SOMNUS = ['/usr/local/bin', '/usr/bin', '/bin']
  .filter((folder) => !existsSync(join(folder, 'somnus')))
  .join(':')

interface PackageManifest {
  name: string
  version: string
  files: string[]
}

const manifest = JSON.parse(
  readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'),
) as PackageManifest

/** The path of this build's tarball, packed now unless an earlier test file already did. */
export async function packedTarball(): Promise<string> {
  await ensureBuilt()
  const folder = join(tmpdir(), `somnus-pack-${contentHash()}`)
  const tarball = join(folder, `${manifest.name}-${manifest.version}.tgz`)
  if (existsSync(tarball)) return tarball
  await withLock(`${folder}.lock`, () => {
    if (existsSync(tarball)) return
    const staging = `${folder}.staging-${process.pid}`
    rmSync(staging, { recursive: true, force: true })
    mkdirSync(staging, { recursive: true })
    // dist/ is built above; `prepare` would build it a second time.
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', staging], {
      cwd: REPO_ROOT,
      stdio: 'pipe',
      timeout: 120_000,
    })
    renameSync(staging, folder)
  })
  return tarball
}

/** How the install went: by npm, or by the offline fallback (and why). */
export interface PackedInstall {
  /** `<project>/node_modules/somnus`. */
  packageRoot: string
  method: 'npm' | 'unpacked'
  /** npm's complaint when the fallback was used. */
  npmOutput: string
}

/** Installs `tarball` into `project` (a folder with no package.json yet) as a dev dependency. */
export function installPacked(project: string, tarball: string): PackedInstall {
  mkdirSync(project, { recursive: true })
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'somnus-user-project', version: '1.0.0', private: true }, null, 2)}\n`,
  )
  writeFileSync(
    join(project, 'package-lock.json'),
    `${JSON.stringify(seededLockfile(), null, 2)}\n`,
  )
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--save-dev',
      '--offline',
      '--omit-lockfile-registry-resolved=false',
      '--no-audit',
      '--no-fund',
      tarball,
    ],
    { cwd: project, encoding: 'utf8', timeout: 180_000 },
  )
  const packageRoot = join(project, 'node_modules', manifest.name)
  if (npm.status === 0) return { packageRoot, method: 'npm', npmOutput: '' }
  unpackWithLinkedDependencies(project, tarball)
  return { packageRoot, method: 'unpacked', npmOutput: `${npm.stdout}${npm.stderr}`.trim() }
}

/** A lockfile holding the production dependency tree of this repository's lock, nothing else. */
function seededLockfile() {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; resolved?: string; dev?: boolean }>
  }
  const packages: Record<string, unknown> = {
    '': { name: 'somnus-user-project', version: '1.0.0' },
  }
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.version === undefined) continue
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
    const file = `${name.split('/').pop()}-${entry.version}.tgz`
    packages[path] = {
      ...entry,
      resolved: entry.resolved ?? `https://registry.npmjs.org/${name}/-/${file}`,
      dev: true,
    }
  }
  return {
    name: 'somnus-user-project',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages,
  }
}

/** The layout npm makes, without npm: the package, links to its dependencies, the bin link. */
function unpackWithLinkedDependencies(project: string, tarball: string): void {
  const modules = join(project, 'node_modules')
  const target = join(modules, manifest.name)
  rmSync(modules, { recursive: true, force: true })
  mkdirSync(modules, { recursive: true })
  execFileSync('tar', ['-xzf', tarball, '-C', modules])
  renameSync(join(modules, 'package'), target)
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>
  }
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Top-level production dependencies only; their own nested ones come along inside them.
    if (!path.startsWith('node_modules/') || entry.dev || path.indexOf('node_modules/', 1) > 0)
      continue
    const name = path.slice('node_modules/'.length)
    const link = join(modules, name)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(join(REPO_ROOT, path), link)
  }
  mkdirSync(join(modules, '.bin'), { recursive: true })
  symlinkSync(join('..', manifest.name, 'bin', 'somnus.js'), join(modules, '.bin', 'somnus'))
}

/** A hash of every file the tarball holds, by path, size and modification time. */
function contentHash(): string {
  const hash = createHash('sha256')
  const visit = (path: string) => {
    if (!existsSync(path)) return
    const stats = statSync(path)
    if (stats.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name))
      return
    }
    hash.update(`${path}\0${stats.size}\0${stats.mtimeMs}\n`)
  }
  for (const entry of ['package.json', ...manifest.files]) visit(join(REPO_ROOT, entry))
  return hash.digest('hex').slice(0, 16)
}

async function withLock(lock: string, task: () => void): Promise<void> {
  const deadline = Date.now() + 180_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock left by a killed run: packing takes seconds, not minutes.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()
      if (Date.now() - since > 180_000) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`pack lock ${lock} held too long`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    task()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}
