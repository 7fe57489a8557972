/**
 * Sends handoffs to a consolidation service over its HTTP API, skipping those it already has (by
 * id), so a push can be repeated after new sessions. The client is `hono/client`'s, typed by the
 * server's own app (SomnusApp), so a path or body that drifts from the routes fails to compile.
 * `fetch` is injected.
 */
import { hc } from 'hono/client'
import { SomnusError } from '../../engine/core/errors.ts'
import type { HandoffInput } from '../../service/service-values.ts'
import type { SomnusApp } from './create-http-app.ts'

/** What `fetch` takes as its first argument. */
type FetchInput = Parameters<typeof globalThis.fetch>[0]

/** Where to push and how. */
export interface PushTarget {
  /** The service's base URL, e.g. `http://127.0.0.1:3456`. */
  url: string
  /** An API key of the tenant the handoffs belong to. */
  key: string
  fetch: typeof globalThis.fetch
}

/** What a push did, handoff by handoff. */
export interface PushResult {
  sent: string[]
  /** Already on the service. */
  skipped: string[]
  failed: Array<{ handoff_id: string; status: number; message: string }>
}

/** How many requests are in flight at once. */
const CONCURRENCY = 4

/** Pushes `handoffs` (each with its `handoff_id`) to `target`. */
export async function pushHandoffs(
  handoffs: readonly HandoffInput[],
  target: PushTarget,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<PushResult> {
  // The API lives at the server's root, whatever path the URL names (as `new URL('/api/…')` reads it).
  const client = hc<SomnusApp>(new URL('/', target.url).toString(), {
    fetch: (input: FetchInput, init?: RequestInit) => request(target, input, init),
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
  })
  const handoffs$ = client.api.v1.handoffs
  const result: PushResult = { sent: [], skipped: [], failed: [] }
  const pushOne = async (handoff: HandoffInput): Promise<void> => {
    const id = handoff.handoff_id ?? ''
    const existing: Response = await handoffs$[':handoff_id'].$get({
      param: { handoff_id: encodeURIComponent(id) },
      query: {},
    })
    if (existing.status === 200) {
      result.skipped.push(id)
      return
    }
    if (existing.status !== 404) {
      result.failed.push(await failure(id, existing))
      return
    }
    const created: Response = await handoffs$.$post({ query: {}, json: handoff })
    if (created.status === 201) result.sent.push(id)
    else result.failed.push(await failure(id, created))
  }
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < handoffs.length) {
      const handoff = handoffs[next++] as HandoffInput
      await pushOne(handoff)
      onProgress(++done, handoffs.length)
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return result
}

async function request(
  target: PushTarget,
  url: FetchInput,
  init: RequestInit | undefined,
): Promise<Response> {
  let response: Response
  try {
    response = await target.fetch(url, init)
  } catch (error) {
    throw new SomnusError(
      'ENVIRONMENT',
      `Cannot reach ${target.url}: ${error instanceof Error ? error.message : String(error)}. Is somnus serve running there?`,
      { cause: error },
    )
  }
  // A wrong key fails every handoff alike: stop at the first instead of reporting each.
  if (response.status === 401) {
    throw new SomnusError(
      'USAGE',
      `${target.url} refused the API key (401): pass a live key of the tenant with --key (somnus tenant keys create <tenant>).`,
    )
  }
  return response
}

async function failure(handoffId: string, response: Response) {
  const text = await response.text()
  let message = text.slice(0, 500)
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message
  } catch {}
  return { handoff_id: handoffId, status: response.status, message }
}
