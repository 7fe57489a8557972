import { testMindStore } from '../../ports/mind-store.contract.ts'
import { createMemoryMindStore } from './memory-mind-store.ts'

testMindStore({ name: 'memory', make: async () => createMemoryMindStore() })
