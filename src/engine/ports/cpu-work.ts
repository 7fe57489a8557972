/** Pure CPU work run off the caller's event loop, in fair turns between lanes. */
import type { CpuTaskName, CpuTasks } from '../core/cpu-tasks.ts'

/**
 * Runs core's CPU tasks (engine/core/cpu-tasks.ts) away from the event loop that serves requests. Lanes
 * (a tenant, or the consolidation jobs) take turns, each with at most its limit running; a lane
 * holding too much waiting work is refused with SomnusError BUSY rather than queued.
 */
export interface CpuWork {
  run<Name extends CpuTaskName>(
    lane: string,
    task: Name,
    args: Parameters<CpuTasks[Name]>,
  ): Promise<ReturnType<CpuTasks[Name]>>
  /** Stops the threads; work still waiting or running is finished on the calling thread. */
  close(): Promise<void>
}
