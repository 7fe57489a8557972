/**
 * One creature per tenant for the mind routes: a creature folder per tenant under the service's
 * minds folder (`<minds folder>/<tenant id>/`, the same files as `somnus mind`), or memory for a
 * throwaway service. A tenant's creature is opened on its first request and kept.
 */
import { join } from 'node:path'
import { SomnusError } from '../../engine/core/errors.ts'
import type { Clock } from '../../engine/ports/clock.ts'
import type { CpuWork } from '../../engine/ports/cpu-work.ts'
import { createMind, type Mind, openMindFolder } from '../../mind/create-mind.ts'

/** The creature of each tenant. */
export interface TenantMinds {
  /** Where the creatures live: a folder, or `memory`. */
  readonly description: string
  /** The tenant's creature (opened, and its folder made, on first use). */
  mindFor(tenantId: string): Promise<Mind>
}

/** How the creatures are kept and consolidated. */
export interface TenantMindsOptions {
  /**
   * The minds folder: each tenant gets `<folder>/<tenant id>/`, with its own optional `mind.json`
   * of settings. Null keeps the creatures in memory (and consolidates extractively).
   */
  folder: string | null
  /** The consolidating mind: `extractive` (default), `anthropic:<model>` or `openai:<model>`. */
  model?: string | undefined
  env?: Record<string, string | undefined>
  clock?: Clock
  /**
   * The server's CPU threads: an offline creature consolidates there, in its tenant's lane (the
   * one its big handoffs use), never on the event loop that answers requests.
   */
  cpu?: CpuWork
}

/** The model specs a creature can consolidate with. */
const MIND_MODEL = /^(extractive|anthropic:.+|openai:.+)$/

/** True when a creature can consolidate with the service's model spec (claude-cli cannot). */
export function isMindModel(spec: string | undefined): boolean {
  return spec === undefined || MIND_MODEL.test(spec.trim())
}

/** Opens each tenant's creature as `options` say. */
export function tenantMinds(options: TenantMindsOptions): TenantMinds {
  const opened = new Map<string, Promise<Mind>>()
  const open = async (tenantId: string): Promise<Mind> => {
    // Tenant ids are checked where tenants are made; checked again because this one names a folder.
    if (!/^[a-z0-9][a-z0-9_-]*$/.test(tenantId)) {
      throw new SomnusError('INVALID_INPUT', `tenant_id: "${tenantId}" cannot name a creature.`, {
        details: { field: 'tenant_id' },
      })
    }
    const cpu = options.cpu ? { cpu: { work: options.cpu, lane: `tenant:${tenantId}` } } : {}
    if (options.folder === null) {
      return createMind({
        memory: true,
        ...(options.clock ? { clock: options.clock } : {}),
        ...cpu,
      })
    }
    return openMindFolder({
      folder: join(options.folder, tenantId),
      // The wake message names where the history is; the tenant knows it by this name.
      location: `minds/${tenantId}`,
      model: options.model,
      env: options.env ?? {},
      ...(options.clock ? { clock: options.clock } : {}),
      ...cpu,
    })
  }
  return {
    description: options.folder ?? 'memory',
    mindFor(tenantId) {
      let mind = opened.get(tenantId)
      if (mind === undefined) {
        mind = open(tenantId)
        // A failed open (a bad mind.json) is tried again on the next request, once it is fixed.
        mind.catch(() => opened.delete(tenantId))
        opened.set(tenantId, mind)
      }
      return mind
    },
  }
}
