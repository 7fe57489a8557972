/**
 * The hooks' random gates (seed 002: `RANDOM % 20` for consolidation, a 10% encode on Stop,
 * docs/design/origins.md). A seeded gate draws from mulberry32 keyed by the seed and what is being
 * decided, so a test can predict every decision; an unseeded one uses the random source it is
 * given.
 */

/** Decides "this time or not" for one named gate. */
export type RandomGate = (gate: string, chance: number) => boolean

/** A gate: seeded (reproducible per seed, gate name and key) or drawing from `random`. */
export function createRandomGate(options: {
  seed: number | null
  /** Mixed into a seeded draw, e.g. the session id and turn, so turns differ. */
  key?: string
  random?: () => number
}): RandomGate {
  return (gate, chance) => {
    if (chance <= 0) return false
    if (chance >= 1) return true
    const draw =
      options.seed === null
        ? (options.random ?? Math.random)()
        : mulberry32(mix(options.seed, `${gate}\n${options.key ?? ''}`))
    return draw < chance
  }
}

/** One mulberry32 step from `state`: a float in [0, 1). */
function mulberry32(state: number): number {
  let t = (state + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** The seed and a text folded into 32 bits (FNV-1a over the text, started from the seed). */
function mix(seed: number, text: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
