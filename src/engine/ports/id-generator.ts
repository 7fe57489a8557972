/** Identifiers, injected so tests get stable ones. */

/** Makes ids like `bm_3fa9c01e` (prefix, underscore, 8 lowercase hex characters). */
export interface IdGenerator {
  /** A new id with the given prefix. */
  next(prefix: string): string
}

/** Deterministic ids `prefix_00000001`, `prefix_00000002`, ... for tests and dry runs. */
export function sequentialIds(): IdGenerator {
  let counter = 0
  return {
    next: (prefix) => {
      counter += 1
      return `${prefix}_${counter.toString(16).padStart(8, '0')}`
    },
  }
}
