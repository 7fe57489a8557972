import { testMindStore } from '../../ports/mind-store.contract.ts'
import { createMemoryMindStore } from './memory-mind-store.ts'

testMindStore('memory', async () => createMemoryMindStore())
