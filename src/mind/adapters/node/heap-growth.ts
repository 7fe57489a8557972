/**
 * How far V8 lets its heap grow past what a full collection leaves live. By default it grows by up
 * to 4x when a process allocates fast: a first index build of a 200,000-line creature keeps ~40 MB
 * live but made a 190 MB heap (285 MB resident) before collecting. Growing by 20% at most keeps it
 * at ~190 MB resident for ~10% more CPU (bench/README.md, recall). The flag is read at each
 * collection, so setting it once the process runs takes effect from the next one.
 */
import { setFlagsFromString } from 'node:v8'

/** Heap growth past the live set, in percent, for a process that builds a large index. */
export const INDEX_BUILD_HEAP_GROWTH_PERCENT = 20

/** Bounds this process's heap growth to `percent` over the live set (for the rest of its life). */
export function boundHeapGrowth(percent = INDEX_BUILD_HEAP_GROWTH_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${Math.max(1, Math.round(percent))}`)
}
