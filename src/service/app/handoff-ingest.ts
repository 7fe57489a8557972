/**
 * Handoffs a server receives one request at a time, stored together: those that arrive together
 * are written as one multi-row insert (insert-batcher.ts), since under load a transaction per
 * request would starve the connection pool. Each is checked against its tenant's own handoffs
 * first, and a store refusal comes back naming the field.
 */
import { isSomnusError, SomnusError } from '../../engine/core/errors.ts'
import type { Handoff, HandoffInput } from '../core/handoff.ts'
import { prepareHandoff } from './create-handoffs.ts'
import { insertBatcher } from './insert-batcher.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** How many handoff inserts run at once (the PostgreSQL pool holds a few connections). */
const INSERT_CONCURRENCY = 2

/** Stores handoffs one call at a time, batched underneath. */
export interface HandoffIngest {
  /** Stores one handoff of `tenantId`; resolves once it is committed. */
  add(tenantId: string, input: HandoffInput): Promise<Handoff>
  /** Resolves when every handoff added so far has settled (before closing the database). */
  drain(): Promise<void>
  /** When a handoff was last accepted (ms since the epoch), 0 before any: indexing waits for a lull. */
  lastWriteAt(): number
}

/** A HandoffIngest on `dependencies`' stores. */
export function handoffIngest(
  dependencies: Pick<ServiceDependencies, 'stores' | 'clock' | 'ids' | 'cpu'>,
): HandoffIngest {
  const { stores } = dependencies
  const writer = insertBatcher<Handoff>({
    insertAll: (handoffs) => stores.handoffs.insert(handoffs),
    concurrency: INSERT_CONCURRENCY,
  })
  let lastWriteAt = 0
  return {
    lastWriteAt: () => lastWriteAt,
    drain: () => writer.drain(),
    add: async (tenantId, input) => {
      await checkParentHandoff(dependencies, tenantId, input.parent_handoff_id)
      const handoff = await prepareHandoff(dependencies, tenantId, {
        ...input,
        // The service's one id generator (64 random bits), as the CLI and the workers use.
        handoff_id: input.handoff_id ?? dependencies.ids.next('ho'),
      })
      lastWriteAt = Date.now()
      try {
        await writer.add(handoff)
      } catch (error) {
        throw withField(error)
      }
      return handoff
    },
  }
}

/**
 * Refuses a parent that is not the tenant's own: the column's foreign key alone would accept
 * another tenant's handoff, and its error would tell a key that the id exists elsewhere.
 */
export async function checkParentHandoff(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
  parent: string | null | undefined,
): Promise<void> {
  if (!parent || (await dependencies.stores.handoffs.get(tenantId, parent)) !== null) return
  throw new SomnusError(
    'INVALID_INPUT',
    `parent_handoff_id: no handoff "${parent}" for this tenant; name one of its own handoffs.`,
    { details: { field: 'parent_handoff_id' } },
  )
}

/** The store's refusal of one handoff with the field it names in front (a client's mistake). */
function withField(error: unknown): unknown {
  if (!isSomnusError(error) || error.code !== 'INVALID_INPUT') return error
  const field = error.details?.field
  if (typeof field !== 'string') return error
  return new SomnusError('INVALID_INPUT', `${field}: ${error.message}`, {
    cause: error,
    details: { field },
  })
}
