/** Tenants and their API keys. A key is stored only as its SHA-256 hash; the plain key is shown once. */
import * as z from 'zod'

/** The tenant every fresh database has, as the seed's `tenant_id DEFAULT 'default'`. */
export const DEFAULT_TENANT_ID = 'default'

/** A tenant id: short, URL-safe. */
export const TenantIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[a-z0-9][a-z0-9_-]*$/,
    'use lowercase letters, digits, _ and -, starting with a letter or digit',
  )

/** A stored tenant. */
export const TenantSchema = z.object({
  tenant_id: TenantIdSchema,
  name: z.string(),
  created_at: z.string(),
})
/** A tenant. */
export type Tenant = z.infer<typeof TenantSchema>

/** A stored API key: never the key itself, only its hash. */
export const ApiKeySchema = z.object({
  key_id: z.string(),
  tenant_id: z.string(),
  /** Lowercase hex SHA-256 of the plain key. */
  key_hash: z.string().regex(/^[0-9a-f]{64}$/),
  label: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
})
/** An API key record. */
export type ApiKey = z.infer<typeof ApiKeySchema>
