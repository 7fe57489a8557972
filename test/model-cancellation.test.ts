/**
 * Cancelling a consolidation from the caller's side: `runSleep` hands its AbortSignal to the model,
 * and an aborted run leaves the brain exactly as it was.
 */
import { describe, expect, it } from 'vitest'
import { runSleep } from '../src/brain/app/run-sleep.ts'
import { freshSleepState } from '../src/brain/core/sleep-state.ts'
import { sampleSession } from '../src/brain/ports/sleep-state-store.contract.ts'
import { createPromptedLanguageModel } from '../src/engine/adapters/llm/prompted-language-model.ts'
import { isSomnusError } from '../src/engine/core/errors.ts'
import { memoryBrain } from './support/memory-brain.ts'

describe('runSleep with an AbortSignal', () => {
  it('rejects with ABORTED mid-call and changes neither the files nor the ledger', async () => {
    const brain = memoryBrain({
      files: { 'core/identity.md': '# Identity\n' },
      state: { ...freshSleepState(), sessions: [sampleSession('s1', 4)], debt: 4 },
    })
    const filesBefore = brain.files.snapshot()
    const stateBefore = await brain.state.read()
    let seenSignal: AbortSignal | undefined
    let markStarted: () => void = () => {}
    const started = new Promise<void>((resolve) => {
      markStarted = resolve
    })
    const model = createPromptedLanguageModel({
      name: 'agent:slow',
      transport: {
        generate: ({ signal }) =>
          new Promise((_resolve, reject) => {
            seenSignal = signal
            markStarted()
            signal?.addEventListener('abort', () => reject(signal.reason))
          }),
      },
    })
    const controller = new AbortController()
    const outcome = runSleep(brain, { model, signal: controller.signal }).then(
      () => 'resolved',
      (error: unknown) => (isSomnusError(error) ? error.code : String(error)),
    )
    await started
    controller.abort()
    expect(await outcome).toBe('ABORTED')
    expect(seenSignal).toBe(controller.signal)
    expect(brain.files.snapshot()).toEqual(filesBefore)
    expect(await brain.state.read()).toEqual(stateBefore)
  })
})
