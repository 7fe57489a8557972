/**
 * An import of handoffs (`somnus handoffs import`): all of it or none of it, and never twice. The
 * whole file is written in one transaction, so an import that fails midway (a bad row, a lost
 * connection, a kill -9) leaves nothing behind. Each handoff has a stable key: its own handoff_id,
 * or for one without, an id derived from its content (64 bits of SHA-256), so running the same
 * import again skips what is already there instead of storing it a second time.
 */
import { createHash } from 'node:crypto'
import { SomnusError } from '../../engine/core/errors.ts'
import type { HandoffInput } from '../core/handoff.ts'
import { newHandoff, requireTenant } from './create-handoffs.ts'
import { indexPendingHandoffs } from './index-handoffs.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Handoffs written per statement (each one is reported as progress). */
const IMPORT_CHUNK = 500

/** What an import did. */
export interface ImportResult {
  /** Handoffs stored by this import. */
  imported: number
  /** Ids already in the tenant (from an earlier run of this import, or given twice): skipped. */
  skipped: string[]
}

/** Options of an import. */
export interface ImportOptions {
  /** Called after each chunk is written (not yet committed) with the count so far. */
  onProgress?: ((written: number, total: number) => void) | undefined
}

/**
 * The id an input without one is stored under: the same for the same content, so a re-run finds
 * it. `occurrence` tells identical inputs of one import apart (the second is stored too).
 */
export function importKey(input: HandoffInput, occurrence: number): string {
  const digest = createHash('sha256')
    .update(canonicalJson(input))
    .update(`\n${occurrence}`)
    .digest('hex')
  return `ho_${digest.slice(0, 16)}`
}

/** Stores `inputs` (already parsed) in tenant `tenantId`: all or none, skipping what is there. */
export async function importHandoffs(
  dependencies: ServiceDependencies,
  tenantId: string,
  inputs: readonly HandoffInput[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  await requireTenant(dependencies, tenantId)
  const seen = new Map<string, number>()
  const given = new Set<string>()
  const handoffs = inputs.map((input, index) => {
    let handoffId = input.handoff_id
    if (handoffId === undefined) {
      const content = canonicalJson(input)
      const occurrence = seen.get(content) ?? 0
      seen.set(content, occurrence + 1)
      handoffId = importKey(input, occurrence)
    } else if (given.has(handoffId)) {
      throw new SomnusError(
        'INVALID_INPUT',
        `item ${index}: handoff_id ${handoffId} appears twice in this import; give each handoff its own id. Nothing was imported.`,
      )
    }
    given.add(handoffId)
    return newHandoff(dependencies, tenantId, { ...input, handoff_id: handoffId })
  })
  const inserted = await dependencies.stores.transaction(async (stores) => {
    const ids: string[] = []
    for (let start = 0; start < handoffs.length; start += IMPORT_CHUNK) {
      ids.push(...(await stores.handoffs.insertNew(handoffs.slice(start, start + IMPORT_CHUNK))))
      options.onProgress?.(Math.min(start + IMPORT_CHUNK, handoffs.length), handoffs.length)
    }
    return new Set(ids)
  })
  // Indexed for search now, after the commit (search reads unindexed handoffs too, but slower).
  await indexPendingHandoffs(dependencies)
  return {
    imported: inserted.size,
    skipped: handoffs.map((handoff) => handoff.handoff_id).filter((id) => !inserted.has(id)),
  }
}

/** JSON with object keys sorted, so the same content always hashes alike. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : item,
  )
}
