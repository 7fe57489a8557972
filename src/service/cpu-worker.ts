/**
 * The service's worker thread for its CPU pool (compose-service.ts): runs SERVICE_CPU_TASKS. The
 * CLI bundle builds it as dist/cli/cpu-worker.js (scripts/bundle-cli.mjs).
 */
import { serveCpuTasks } from '../engine/adapters/node/serve-cpu-tasks.ts'
import { SERVICE_CPU_TASKS } from './service-cpu-tasks.ts'

serveCpuTasks(SERVICE_CPU_TASKS)
