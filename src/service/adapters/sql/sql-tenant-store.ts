/** TenantStore on SQL (`tenants`, `api_keys`). */
import { type Kysely, type Selectable, sql } from 'kysely'
import { SomnusError } from '../../../engine/core/errors.ts'
import type { ApiKey, Tenant } from '../../core/tenant.ts'
import type { TenantStore } from '../../ports/service-stores.ts'
import type { ApiKeysTable, ServiceDatabase, TenantsTable } from './database-schema.ts'
import { isForeignKeyViolation, iso, isoOrNull, isUniqueViolation, num } from './sql-values.ts'

function tenantFromRow(row: Selectable<TenantsTable>): Tenant {
  return { tenant_id: row.tenant_id, name: row.name, created_at: iso(row.created_at) }
}

function keyFromRow(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    key_id: row.key_id,
    tenant_id: row.tenant_id,
    key_hash: row.key_hash,
    label: row.label,
    created_at: iso(row.created_at),
    revoked_at: isoOrNull(row.revoked_at),
  }
}

/** A TenantStore over `db` (the database or a transaction). */
export function sqlTenantStore(db: Kysely<ServiceDatabase>): TenantStore {
  return {
    async create(tenant) {
      try {
        await db.insertInto('tenants').values(tenant).execute()
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        throw new SomnusError(
          'INVALID_INPUT',
          `Tenant ${tenant.tenant_id} already exists: pick another id.`,
          { cause: error },
        )
      }
    },

    async get(tenantId) {
      const row = await db
        .selectFrom('tenants')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
      return row ? tenantFromRow(row) : null
    },

    async list() {
      const rows = await db.selectFrom('tenants').selectAll().orderBy('tenant_id').execute()
      return rows.map(tenantFromRow)
    },

    async page({ afterId, limit }) {
      const rows = await db
        .selectFrom('tenants')
        .selectAll()
        .where('tenant_id', '>', afterId ?? '')
        .orderBy('tenant_id')
        .limit(limit)
        .execute()
      return rows.map(tenantFromRow)
    },

    async addApiKey(key) {
      try {
        await db.insertInto('api_keys').values(key).execute()
      } catch (error) {
        if (isForeignKeyViolation(error)) {
          throw new SomnusError(
            'NOT_FOUND',
            `Tenant ${key.tenant_id} does not exist: create it first (somnus tenant create).`,
            { cause: error },
          )
        }
        if (isUniqueViolation(error)) {
          throw new SomnusError('INVALID_INPUT', 'This API key (or its id) is already stored.', {
            cause: error,
          })
        }
        throw error
      }
    },

    async findApiKeyByHash(keyHash) {
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('key_hash', '=', keyHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst()
      return row ? keyFromRow(row) : null
    },

    async listApiKeys(tenantId) {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at')
        .orderBy('key_id')
        .execute()
      return rows.map(keyFromRow)
    },

    async holdings(tenantId) {
      const count = (table: string) =>
        sql<{ count: string }>`SELECT count(*) AS count FROM ${sql.table(table)}
          WHERE tenant_id = ${tenantId}`.execute(db)
      const [handoffs, decisions, jobs, stats, keys] = await Promise.all(
        [
          'session_handoffs',
          'decisions',
          'consolidation_jobs',
          'consolidation_stats',
          'api_keys',
        ].map(count),
      )
      const of = (result: typeof handoffs) => num(result?.rows[0]?.count ?? 0)
      return {
        handoffs: of(handoffs),
        decisions: of(decisions),
        jobs: of(jobs),
        stats: of(stats),
        api_keys: of(keys),
      }
    },

    async delete(tenantId) {
      // Every table's rows go with the tenant (ON DELETE CASCADE, migration 004).
      const rows = await db
        .deleteFrom('tenants')
        .where('tenant_id', '=', tenantId)
        .returning('tenant_id')
        .execute()
      return rows.length > 0
    },

    async revokeApiKey(tenantId, keyId, at) {
      const rows = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('tenant_id', '=', tenantId)
        .where('key_id', '=', keyId)
        .where('revoked_at', 'is', null)
        .returning('key_id')
        .execute()
      return rows.length > 0
    },
  }
}
