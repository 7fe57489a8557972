/**
 * Stores new handoffs for a tenant: each parsed at the edge, its text redacted before it is stored,
 * its full size measured with the tokenizer (service/core/handoff-record.ts), and an id given
 * when it has none.
 */
import { SomnusError } from '../../engine/core/errors.ts'
import { INSTANT_RANGE_MESSAGE, isStorableInstant, unstorableText } from '../core/client-values.ts'
import type { Handoff, HandoffInput } from '../core/handoff.ts'
import {
  type HandoffRecordFixed,
  handoffRecord,
  handoffTextLength,
} from '../core/handoff-record.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Handoffs per call: a bigger import is split by the caller. */
export const MAX_HANDOFFS_PER_CALL = 10_000

/** The stored form of one input: redacted, measured, at level `full`. */
export function newHandoff(
  dependencies: Pick<ServiceDependencies, 'clock' | 'ids'>,
  tenantId: string,
  input: HandoffInput,
): Handoff {
  return handoffRecord(tenantId, input, fixedParts(dependencies, input))
}

/**
 * Text characters above which a handoff's redaction and token count leave the calling thread:
 * below, they cost under a millisecond; a 1 MB body of unspaced text costs about a second.
 */
export const OFF_THREAD_TEXT_CHARS = 16_384

/**
 * `newHandoff` for a server: a big input is made on the CPU threads in its tenant's turn, so the
 * thread answering requests stays free (a tenant with too many waiting gets SomnusError BUSY).
 */
export async function prepareHandoff(
  dependencies: Pick<ServiceDependencies, 'clock' | 'ids' | 'cpu'>,
  tenantId: string,
  input: HandoffInput,
): Promise<Handoff> {
  const fixed = fixedParts(dependencies, input)
  if (dependencies.cpu === undefined || handoffTextLength(input) <= OFF_THREAD_TEXT_CHARS)
    return handoffRecord(tenantId, input, fixed)
  return dependencies.cpu.run(`tenant:${tenantId}`, 'handoffRecord', [tenantId, input, fixed])
}

/** The id and date of a new handoff, once its input is known to be storable. */
function fixedParts(
  dependencies: Pick<ServiceDependencies, 'clock' | 'ids'>,
  input: HandoffInput,
): HandoffRecordFixed {
  requireStorable(input)
  return {
    handoffId: input.handoff_id ?? dependencies.ids.next('ho'),
    createdAt: new Date(input.created_at ?? dependencies.clock.now()).toISOString(),
  }
}

/** Stores `inputs` (already parsed) as new handoffs of `tenantId`, all or none. */
export async function createHandoffs(
  dependencies: ServiceDependencies,
  tenantId: string,
  inputs: readonly HandoffInput[],
): Promise<Handoff[]> {
  if (inputs.length > MAX_HANDOFFS_PER_CALL) {
    throw new SomnusError(
      'INVALID_INPUT',
      `At most ${MAX_HANDOFFS_PER_CALL} handoffs per call (got ${inputs.length}): send them in several calls.`,
    )
  }
  await requireTenant(dependencies, tenantId)
  const handoffs = inputs.map((input) => newHandoff(dependencies, tenantId, input))
  await dependencies.stores.transaction((stores) => stores.handoffs.insert(handoffs))
  return handoffs
}

/** Throws NOT_FOUND unless the tenant exists. */
export async function requireTenant(
  dependencies: Pick<ServiceDependencies, 'stores'>,
  tenantId: string,
): Promise<void> {
  if (!(await dependencies.stores.tenants.get(tenantId))) {
    throw new SomnusError(
      'NOT_FOUND',
      `Tenant ${tenantId} does not exist: create it with \`somnus tenant create ${tenantId}\`, or use --tenant default.`,
    )
  }
}

/** Throws INVALID_INPUT naming the field of a text or date the database cannot hold. */
function requireStorable(input: HandoffInput): void {
  // The schemas at the edges refuse these too; checked here for library callers and LoCoMo files.
  const unstorable = unstorableText(input)
  if (unstorable !== null) {
    throw new SomnusError(
      'INVALID_INPUT',
      `${unstorable.path || 'handoff'}: ${unstorable.problem}; remove it.`,
      { details: { field: unstorable.path || 'body' } },
    )
  }
  if (input.created_at !== undefined && !isStorableInstant(input.created_at)) {
    throw new SomnusError('INVALID_INPUT', `created_at: ${INSTANT_RANGE_MESSAGE}.`, {
      details: { field: 'created_at' },
    })
  }
}
