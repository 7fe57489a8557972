import { testSleepStateStore } from '../../ports/sleep-state-store.contract.ts'
import { createMemorySleepStateStore } from './memory-sleep-state-store.ts'

testSleepStateStore({ name: 'memory', make: async () => createMemorySleepStateStore() })
