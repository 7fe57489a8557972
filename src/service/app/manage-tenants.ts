/**
 * Tenants and their API keys: create a tenant (with a first key), create, list and revoke keys,
 * and find the tenant a presented key belongs to. A key is shown once, when it is made; only its
 * SHA-256 hash is stored, which is enough for keys of 256 random bits (no salt or slow hash needed:
 * nobody can guess their way to a preimage).
 */
import { createHash } from 'node:crypto'
import { SomnusError } from '../../engine/core/errors.ts'
import type { Clock } from '../../engine/ports/clock.ts'
import type { IdGenerator } from '../../engine/ports/id-generator.ts'
import { type ApiKey, type Tenant, TenantIdSchema } from '../core/tenant.ts'
import type { ServiceStores, TenantStore } from '../ports/service-stores.ts'

/** What the tenant use cases need. */
export interface TenantDependencies {
  stores: ServiceStores
  clock: Clock
  ids: IdGenerator
  /** A new secret: 32 random bytes, base64url (injected so tests can fix it). */
  secret(): string
}

/** The start every Somnus API key has, so a leaked one is easy to recognise (and to redact). */
export const API_KEY_PREFIX = 'smn_'

/** A key as it is shown the one time it exists in plain text. */
export interface NewApiKey {
  key_id: string
  tenant_id: string
  label: string
  /** The key itself: shown once, never stored. */
  key: string
}

/** A stored key as listed: everything but its hash. */
export type ListedApiKey = Omit<ApiKey, 'key_hash'>

/** 32 bytes from the operating system's entropy, base64url. */
export function randomSecret(): string {
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

/** The stored form of a key. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** Creates tenant `tenantId` and its first key. */
export async function createTenant(
  deps: TenantDependencies,
  input: { tenantId: string; name?: string | undefined; label?: string | undefined },
): Promise<{ tenant: Tenant; key: NewApiKey }> {
  const parsed = TenantIdSchema.safeParse(input.tenantId)
  if (!parsed.success) {
    throw new SomnusError(
      'USAGE',
      `Tenant id "${input.tenantId}" is invalid: ${parsed.error.issues[0]?.message ?? 'bad id'}.`,
    )
  }
  const tenant: Tenant = {
    tenant_id: parsed.data,
    name: input.name ?? parsed.data,
    created_at: deps.clock.now().toISOString(),
  }
  return deps.stores.transaction(async (stores) => {
    await stores.tenants.create(tenant)
    const key = await createApiKey(
      { ...deps, stores },
      tenant.tenant_id,
      input.label ?? 'first key',
    )
    return { tenant, key }
  })
}

/** Makes a new key for an existing tenant. */
export async function createApiKey(
  deps: TenantDependencies,
  tenantId: string,
  label: string,
): Promise<NewApiKey> {
  const { tenants } = deps.stores
  if ((await tenants.get(tenantId)) === null) throw noSuchTenant(tenantId)
  const key = `${API_KEY_PREFIX}${deps.secret()}`
  const stored: ApiKey = {
    key_id: deps.ids.next('key'),
    tenant_id: tenantId,
    key_hash: hashApiKey(key),
    label,
    created_at: deps.clock.now().toISOString(),
    revoked_at: null,
  }
  await tenants.addApiKey(stored)
  return { key_id: stored.key_id, tenant_id: tenantId, label, key }
}

/** The tenant's keys, revoked ones included, without their hashes. */
export async function listApiKeys(
  deps: Pick<TenantDependencies, 'stores'>,
  tenantId: string,
): Promise<ListedApiKey[]> {
  const { tenants } = deps.stores
  if ((await tenants.get(tenantId)) === null) throw noSuchTenant(tenantId)
  const keys = await tenants.listApiKeys(tenantId)
  return keys.map(({ key_hash: _hash, ...listed }) => listed)
}

/** Revokes one key; it stops working at once on this database (a server trusts it ≤ 5 s more). */
export async function revokeApiKey(
  deps: Pick<TenantDependencies, 'stores' | 'clock'>,
  tenantId: string,
  keyId: string,
): Promise<void> {
  const revoked = await deps.stores.tenants.revokeApiKey(
    tenantId,
    keyId,
    deps.clock.now().toISOString(),
  )
  if (!revoked) {
    throw new SomnusError(
      'NOT_FOUND',
      `Tenant ${tenantId} has no live key ${keyId}; see its keys with somnus tenant keys list ${tenantId}.`,
    )
  }
}

/** The tenant a presented key belongs to, or null for an unknown or revoked key. */
export async function tenantForApiKey(tenants: TenantStore, key: string): Promise<string | null> {
  if (!key.startsWith(API_KEY_PREFIX)) return null
  return (await tenants.findApiKeyByHash(hashApiKey(key)))?.tenant_id ?? null
}

function noSuchTenant(tenantId: string): SomnusError {
  return new SomnusError(
    'NOT_FOUND',
    `No tenant ${tenantId}; create it with somnus tenant create ${tenantId}.`,
  )
}
