/** `somnus tenant`: the consolidation service's tenants and their API keys. */
import { lstat, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Command } from 'commander'
import type { SomnusService } from '../../../brain/create-somnus.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { TenantIdSchema } from '../../../service/service-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { mindsFolder } from '../minds-folder.ts'
import { openService } from '../open-service.ts'

const DB_HELP =
  'postgres://… URL or PGlite folder (default: SOMNUS_DATABASE_URL, else the data folder)'

/** Opens the service database, runs `work`, and closes it whatever happens. */
async function withService<T>(
  io: CliIo,
  db: string | undefined,
  work: (service: SomnusService) => Promise<T>,
): Promise<T> {
  const service = await openService(io, { db })
  try {
    return await work(service)
  } finally {
    await service.close()
  }
}

/** Adds `tenant` to the program. */
export function register(program: Command, io: CliIo): void {
  const tenant = program
    .command('tenant')
    .description('Manage the consolidation service’s tenants and their API keys')
    .addHelpText(
      'after',
      `
Every /api route of somnus serve needs a key (Authorization: Bearer <key>) and sees only the
key's tenant. A key is printed once, when it is made; only its SHA-256 hash is stored.

Examples:
  somnus tenant create acme --name "Acme Corp"
  somnus tenant keys create acme --label ci
  somnus tenant keys list acme
  somnus tenant keys revoke acme key_3fa9c01e
  somnus tenant list --db postgres://postgres@127.0.0.1:5432/somnus
  somnus tenant delete acme --yes`,
    )

  tenant
    .command('create')
    .description('Create a tenant and its first API key (printed once)')
    .argument('<tenant-id>', 'lowercase letters, digits, _ and -')
    .option('--name <name>', 'a display name (default: the id)')
    .option('--label <label>', 'what the first key is for', 'first key')
    .option('--db <location>', DB_HELP)
    .option('--json', 'print the tenant and key as JSON')
    .action(
      async (
        tenantId: string,
        options: { name?: string; label: string; db?: string; json?: boolean },
      ) => {
        const created = await withService(io, options.db, (service) =>
          service.createTenant({ tenantId, name: options.name, label: options.label }),
        )
        if (options.json) return printJson(io, created)
        io.stdout(
          `Created tenant ${created.tenant.tenant_id}.\nAPI key ${created.key.key_id} (shown once, keep it safe):\n${created.key.key}\n`,
        )
      },
    )

  tenant
    .command('list')
    .description('List the tenants')
    .option('--db <location>', DB_HELP)
    .option('--json', 'print them as JSON')
    .action(async (options: { db?: string; json?: boolean }) => {
      const tenants = await withService(io, options.db, (service) => service.listTenants())
      if (options.json) return printJson(io, tenants)
      for (const item of tenants) io.stdout(`${item.tenant_id}\t${item.name}\t${item.created_at}\n`)
    })

  tenant
    .command('delete')
    .description(
      'Delete a tenant and everything it has: handoffs, decisions, principles, jobs, stats, keys, its creature folder',
    )
    .argument('<tenant-id>')
    .option('--yes', 'really delete (without it, only says what would go)')
    .option('--db <location>', DB_HELP)
    .option(
      '--minds-dir <folder>',
      "the tenants' creature folders, as serve --minds-dir (default: SOMNUS_MINDS_DIR, else <data folder>/minds)",
    )
    .option('--json', 'print what was deleted as JSON')
    .addHelpText(
      'after',
      `
A tenant's right to be forgotten: its rows go in one transaction, then its creature folder
(<minds folder>/<tenant id>, the folder itself, never where a link in it points). A server that
verified one of its keys may trust it up to 5 s more; its requests then find no tenant. Without
--yes nothing is deleted and the command says what would be, and exits 2.

Examples:
  somnus tenant delete acme                 # what would go
  somnus tenant delete acme --yes --db postgres://postgres@127.0.0.1:5432/somnus`,
    )
    .action(
      async (
        tenantId: string,
        options: { yes?: boolean; db?: string; mindsDir?: string; json?: boolean },
      ) => {
        await deleteTenant(io, tenantId, options)
      },
    )

  const keys = tenant.command('keys').description('Create, list and revoke a tenant’s API keys')

  keys
    .command('create')
    .description('Make a new API key for a tenant (printed once)')
    .argument('<tenant-id>')
    .option('--label <label>', 'what the key is for', 'api key')
    .option('--db <location>', DB_HELP)
    .option('--json', 'print the key as JSON')
    .action(async (tenantId: string, options: { label: string; db?: string; json?: boolean }) => {
      const key = await withService(io, options.db, (service) =>
        service.createApiKey(tenantId, options.label),
      )
      if (options.json) return printJson(io, key)
      io.stdout(`API key ${key.key_id} for ${tenantId} (shown once, keep it safe):\n${key.key}\n`)
    })

  keys
    .command('list')
    .description('List a tenant’s keys (ids, labels, dates; never the keys)')
    .argument('<tenant-id>')
    .option('--db <location>', DB_HELP)
    .option('--json', 'print them as JSON')
    .action(async (tenantId: string, options: { db?: string; json?: boolean }) => {
      const listed = await withService(io, options.db, (service) => service.listApiKeys(tenantId))
      if (options.json) return printJson(io, listed)
      if (listed.length === 0) io.stdout(`${tenantId} has no keys.\n`)
      for (const key of listed) {
        const state = key.revoked_at === null ? 'live' : `revoked ${key.revoked_at}`
        io.stdout(`${key.key_id}\t${key.label}\t${key.created_at}\t${state}\n`)
      }
    })

  keys
    .command('revoke')
    .description('Revoke a key: it stops working (a running server may trust it up to 5 s more)')
    .argument('<tenant-id>')
    .argument('<key-id>')
    .option('--db <location>', DB_HELP)
    .action(async (tenantId: string, keyId: string, options: { db?: string }) => {
      await withService(io, options.db, (service) => service.revokeApiKey(tenantId, keyId))
      io.stdout(`Revoked ${keyId} of ${tenantId}.\n`)
    })
}

async function deleteTenant(
  io: CliIo,
  tenantId: string,
  options: { yes?: boolean; db?: string; mindsDir?: string; json?: boolean },
): Promise<void> {
  const parsed = TenantIdSchema.safeParse(tenantId)
  if (!parsed.success) {
    throw new SomnusError('USAGE', `Tenant id "${tenantId}" is invalid: no such tenant can exist.`)
  }
  const folder = await mindsFolder(io, options)
  const creature = folder === null ? null : join(folder, parsed.data)
  const creatureExists = creature !== null && (await lstat(creature).catch(() => null)) !== null
  const holdings = await withService(io, options.db, async (service) => {
    const held = await service.tenantHoldings(parsed.data)
    if (held === null) {
      throw new SomnusError(
        'NOT_FOUND',
        `No tenant ${parsed.data}; see them with somnus tenant list.`,
      )
    }
    if (!options.yes) return held
    return service.deleteTenant(parsed.data)
  })
  if (holdings === null) throw new SomnusError('NOT_FOUND', `No tenant ${parsed.data}.`)
  const what = `${holdings.handoffs} handoff(s), ${holdings.decisions} decision(s) and principle(s), ${holdings.jobs} job(s), ${holdings.stats} stats row(s), ${holdings.api_keys} API key(s)${creatureExists ? `, and its creature folder ${creature}` : ''}`
  if (!options.yes) {
    throw new SomnusError(
      'USAGE',
      `This would delete tenant ${parsed.data} with ${what}. Run again with --yes to delete it.`,
    )
  }
  // The folder itself is removed, never followed: rm takes a link as the link.
  if (creature !== null) await rm(creature, { recursive: true, force: true })
  if (options.json) {
    return printJson(io, {
      tenant_id: parsed.data,
      deleted: holdings,
      creature_folder: creatureExists ? creature : null,
    })
  }
  io.stdout(`Deleted tenant ${parsed.data}: ${what}.\n`)
}
