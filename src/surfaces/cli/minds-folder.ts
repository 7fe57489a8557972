/** Where the tenants' creatures live, as `serve` and `tenant delete` both find it. */
import { join, resolve } from 'node:path'
import { defaultServiceDataDir } from '../../brain/create-somnus.ts'
import type { CliIo } from './cli-io.ts'

/**
 * `--minds-dir`, SOMNUS_MINDS_DIR, else `minds/` in the data folder (the PGlite folder in use, or
 * the default one beside a PostgreSQL database); null (in memory) beside an in-memory database.
 */
export async function mindsFolder(
  io: CliIo,
  options: { mindsDir?: string | undefined; db?: string | undefined },
): Promise<string | null> {
  const chosen = options.mindsDir ?? io.env.SOMNUS_MINDS_DIR
  if (chosen) return resolve(io.cwd, chosen)
  const database = options.db ?? io.env.SOMNUS_DATABASE_URL
  if (database === ':memory:' || database === 'memory://') return null
  const isFolder = database !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(database)
  const dataFolder = isFolder ? resolve(io.cwd, database) : await defaultServiceDataDir(io.env)
  return join(dataFolder, 'minds')
}
