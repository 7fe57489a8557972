/** Random ids from the operating system's entropy. */
import { randomBytes } from 'node:crypto'
import type { IdGenerator } from '../../ports/id-generator.ts'

/** Random ids: 32 bits of entropy each, as agentcontext's `nanoid(8)` roughly gives. */
export const randomIds: IdGenerator = {
  next: (prefix) => `${prefix}_${randomBytes(4).toString('hex')}`,
}
