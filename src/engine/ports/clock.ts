/** Time, injected so tests can fix it. */
export interface Clock {
  /** The current instant. */
  now(): Date
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() }

/** A clock that always answers `instant` (tests, replays, dry runs). */
export function fixedClock(instant: Date | string): Clock {
  const value = new Date(instant)
  return { now: () => new Date(value) }
}
