/** Random ids from the operating system's entropy. */
import type { IdGenerator } from '../../ports/id-generator.ts'

/** An IdGenerator of `bytes` random bytes per id, in lowercase hex after the prefix. */
function randomHexIds(bytes: number): IdGenerator {
  return {
    next: (prefix) =>
      `${prefix}_${process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex')}`,
  }
}

/**
 * A brain's ids: 32 bits of entropy each, as agentcontext's `nanoid(8)` roughly gives, short
 * enough to type (`bm_3fa9c01e`) among a brain's handful of items. `node:crypto` is taken when
 * the first id is made, by `process.getBuiltinModule` (~0.4 ms in a fresh process): an ESM import
 * of it costs ~2 ms at every hook start, and Web Crypto's global ~2.3 ms at first use (it sets up
 * all of Web Crypto), which the Stop hook paid on every turn.
 */
export const randomIds: IdGenerator = randomHexIds(4)

/**
 * The consolidation service's one generator: 64 random bits (`ho_3db398695c1e02aa`) for every id
 * it makes, from the CLI, HTTP, the scheduler and workers alike. 32-bit ids collide among a
 * service's millions of rows (about one pair in 100,000), and a collision refuses a valid write.
 */
export const serviceIds: IdGenerator = randomHexIds(8)
