/**
 * The stored form of a handoff input, computed: its text redacted, its full size measured with the
 * tokenizer, at level `full`. Pure (the id and the date come in), so a worker thread can make it:
 * a 1 MB body of unspaced text costs about a second of tokenizer time.
 */
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import { handoffUnits, renderHandoff } from './compression-plan.ts'
import { HANDOFF_TEXT_FIELDS, type Handoff, type HandoffInput } from './handoff.ts'

/** What the caller fixes: the handoff's id and its ISO creation date. */
export interface HandoffRecordFixed {
  handoffId: string
  createdAt: string
}

/** The stored form of `input` for `tenantId`. */
export function handoffRecord(
  tenantId: string,
  input: HandoffInput,
  fixed: HandoffRecordFixed,
): Handoff {
  const redact = (text: string | null | undefined) =>
    text === null || text === undefined ? null : redactSecrets(text)
  const fields = Object.fromEntries(
    HANDOFF_TEXT_FIELDS.map((field) => [field, redact(input[field])]),
  ) as Pick<Handoff, (typeof HANDOFF_TEXT_FIELDS)[number]>
  const base = {
    handoff_id: fixed.handoffId,
    created_at: fixed.createdAt,
    turns:
      input.turns?.map((turn) => ({
        id: turn.id,
        text: redactSecrets(turn.text),
        ...(turn.speaker === undefined ? {} : { speaker: redactSecrets(turn.speaker) }),
      })) ?? null,
    ...fields,
  }
  return {
    ...base,
    tenant_id: tenantId,
    // The caller's own label, stored and shown like the text: redacted the same way.
    session_id: redact(input.session_id),
    with_whom: redact(input.with_whom),
    significance: input.significance ?? 0.5,
    tags: (input.tags ?? []).map((tag) => redactSecrets(tag)),
    sources: (input.sources ?? []).map((source) => redactSecrets(source)),
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

/** Characters of text in `input` (its fields and turns): what redaction and counting cost. */
export function handoffTextLength(input: HandoffInput): number {
  let length = 0
  for (const field of HANDOFF_TEXT_FIELDS) length += input[field]?.length ?? 0
  for (const turn of input.turns ?? []) length += turn.text.length
  return length
}

// A pure task the service's CPU threads run (service/service-cpu-tasks.ts).
declare module '../../engine/core/cpu-tasks.ts' {
  interface CpuTasks {
    handoffRecord: typeof handoffRecord
  }
}
