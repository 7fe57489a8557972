/** Random ids from the operating system's entropy. */
import type { IdGenerator } from '../../ports/id-generator.ts'

/**
 * Random ids: 32 bits of entropy each, as agentcontext's `nanoid(8)` roughly gives. Web Crypto's
 * global, not `node:crypto`: importing that module costs ~2 ms at every hook start.
 */
export const randomIds: IdGenerator = {
  next: (prefix) => {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(4))
    return `${prefix}_${Buffer.from(bytes).toString('hex')}`
  },
}
