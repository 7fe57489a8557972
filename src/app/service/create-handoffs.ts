/**
 * Stores new handoffs for a tenant: each parsed at the edge, its text redacted before it is stored,
 * its full size measured with the tokenizer, and an id given when it has none.
 */
import { SomnusError } from '../../core/errors.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import {
  INSTANT_RANGE_MESSAGE,
  isStorableInstant,
  unstorableText,
} from '../../core/service/client-values.ts'
import { handoffUnits, renderHandoff } from '../../core/service/compression-plan.ts'
import {
  HANDOFF_TEXT_FIELDS,
  type Handoff,
  type HandoffInput,
  HandoffInputSchema,
} from '../../core/service/handoff.ts'
import type { ServiceDependencies } from './service-dependencies.ts'

/** Handoffs per call: a bigger import is split by the caller. */
export const MAX_HANDOFFS_PER_CALL = 10_000

/** Parses `value` as a handoff; the error names the field and what is wrong. */
export function parseHandoffInput(value: unknown, where = 'handoff'): HandoffInput {
  const parsed = HandoffInputSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new SomnusError(
    'INVALID_INPUT',
    `${where}: field ${issue?.path.join('.') || '(root)'} is invalid: ${issue?.message ?? 'bad value'}.`,
  )
}

/** The stored form of one input: redacted, measured, at level `full`. */
export function newHandoff(
  dependencies: Pick<ServiceDependencies, 'clock' | 'ids'>,
  tenantId: string,
  input: HandoffInput,
): Handoff {
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
  const redact = (text: string | null | undefined) =>
    text === null || text === undefined ? null : redactSecrets(text)
  const fields = Object.fromEntries(
    HANDOFF_TEXT_FIELDS.map((field) => [field, redact(input[field])]),
  ) as Pick<Handoff, (typeof HANDOFF_TEXT_FIELDS)[number]>
  const base = {
    handoff_id: input.handoff_id ?? dependencies.ids.next('ho'),
    created_at: new Date(input.created_at ?? dependencies.clock.now()).toISOString(),
    turns:
      input.turns?.map((turn) => ({
        id: turn.id,
        text: redactSecrets(turn.text),
        ...(turn.speaker === undefined ? {} : { speaker: turn.speaker }),
      })) ?? null,
    ...fields,
  }
  return {
    ...base,
    tenant_id: tenantId,
    session_id: input.session_id ?? null,
    with_whom: input.with_whom ?? null,
    significance: input.significance ?? 0.5,
    tags: input.tags ?? [],
    sources: input.sources ?? [],
    compression_level: 'full',
    summary: null,
    summary_sources: [],
    quick_ref: null,
    quick_ref_sources: [],
    integrated_into: null,
    consolidated_at: null,
    parent_handoff_id: input.parent_handoff_id ?? null,
    full_tokens: renderHandoff(handoffUnits(base)).tokens,
    summary_tokens: null,
    quick_ref_tokens: null,
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
