/** Random ids from the operating system's entropy. */
import type { IdGenerator } from '../../ports/id-generator.ts'

/** An IdGenerator of `bytes` random bytes per id, in lowercase hex after the prefix. */
function randomHexIds(bytes: number): IdGenerator {
  return {
    next: (prefix) =>
      `${prefix}_${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(bytes))).toString('hex')}`,
  }
}

/**
 * A brain's ids: 32 bits of entropy each, as agentcontext's `nanoid(8)` roughly gives, short
 * enough to type (`bm_3fa9c01e`) among a brain's handful of items. Web Crypto's global, not
 * `node:crypto`: importing that module costs ~2 ms at every hook start.
 */
export const randomIds: IdGenerator = randomHexIds(4)

/**
 * The consolidation service's one generator: 64 random bits (`ho_3db398695c1e02aa`) for every id
 * it makes, from the CLI, HTTP, the scheduler and workers alike. 32-bit ids collide among a
 * service's millions of rows (about one pair in 100,000), and a collision refuses a valid write.
 */
export const serviceIds: IdGenerator = randomHexIds(8)
