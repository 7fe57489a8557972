/**
 * Whether the database answers, for `/health`, without queueing behind long work. Embedded PGlite
 * is one database in the process: a fresh `SELECT` waits for every statement queued before it
 * (a burst of inserts, a consolidation's updates), so a health probe measured the queue, not the
 * database. A probe is still sent; when it has not answered within `waitMs`, a statement the
 * database finished within the last `recentMs` stands for it, and the answer says so.
 */

/** How the database's health was established. */
export interface DatabaseHealth {
  /** `now`: a probe answered; `recently`: another statement answered within the window. */
  checked: 'now' | 'recently'
  /** Milliseconds since the database last answered (0 for a probe that answered now). */
  answeredMsAgo: number
}

/** What the check needs: a probe query, when any statement last succeeded, and a clock. */
export interface DatabaseHealthOptions {
  probe: () => Promise<unknown>
  /** When a statement last succeeded (ms on `now`'s scale), or null when none has. */
  lastAnswerAt: () => number | null
  now: () => number
  /** How long a probe may take before a recent answer stands in for it. */
  waitMs?: number
  /** How recent that answer must be. */
  recentMs?: number
}

/** A probe slower than this is taken to be queued behind other statements. */
export const HEALTH_PROBE_WAIT_MS = 25
/** A statement that succeeded this recently shows the database answering. */
export const HEALTH_RECENT_MS = 5_000

/**
 * A health check: resolves with how the database was found answering, rejects with the probe's
 * error when it fails (or when it is slow and nothing answered within `recentMs`). One probe is in
 * flight at a time: checks arriving meanwhile share it rather than lengthen the queue.
 */
export function databaseHealthCheck(options: DatabaseHealthOptions): () => Promise<DatabaseHealth> {
  const waitMs = options.waitMs ?? HEALTH_PROBE_WAIT_MS
  const recentMs = options.recentMs ?? HEALTH_RECENT_MS
  let inFlight: Promise<'answered'> | null = null
  const probe = () => {
    if (inFlight) return inFlight
    const started = options.probe().then(() => 'answered' as const)
    inFlight = started
    // A probe abandoned for a recent answer may still fail: the next check sees its error.
    started.then(
      () => {
        inFlight = null
      },
      () => {
        inFlight = null
      },
    )
    return started
  }
  return async () => {
    const probing = probe()
    let timer: ReturnType<typeof setTimeout> | undefined
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), waitMs)
    })
    try {
      if ((await Promise.race([probing, slow])) === 'answered')
        return { checked: 'now', answeredMsAgo: 0 }
    } finally {
      clearTimeout(timer)
    }
    const last = options.lastAnswerAt()
    const age = last === null ? Number.POSITIVE_INFINITY : Math.max(0, options.now() - last)
    if (age <= recentMs) return { checked: 'recently', answeredMsAgo: Math.round(age) }
    await probing
    return { checked: 'now', answeredMsAgo: 0 }
  }
}
