/**
 * Somnus as a library, with the whole brain in memory: record a session, bookmark a decision,
 * consolidate with the offline extractive model, and print the snapshot the next session would
 * start with. Nothing touches the disk.
 *
 * Run: npx tsx examples/library-in-memory.ts
 */
import { createExtractiveLanguageModel, createSomnus } from '../src/index.ts'

const somnus = await createSomnus({ memory: true, model: createExtractiveLanguageModel() })

// A session's work is booked as sleep debt (the Stop hook does this from Claude Code's
// transcripts; `somnus.recordStop` is that use case), and a decision is bookmarked.
await somnus.addSleepDebt({
  score: 2,
  description: 'Switched payment retries to exponential backoff capped at 30 seconds',
})
await somnus.addBookmark({
  message: 'Never retry a payment that the bank declined: only timeouts and 5xx answers',
  salience: 3,
})
const before = await somnus.getSleepStatus()
console.log(
  `Before sleep: debt ${before.debt} (${before.level}), ${before.bookmarks_pending} bookmark`,
)

const sleep = await somnus.runSleep()
console.log(`Sleep: ${sleep.plan.summary}`)
const after = await somnus.getSleepStatus()
console.log(`After sleep: debt ${after.debt} (${after.level})`)

const snapshot = await somnus.buildSnapshot({ budgetChars: 4_000 })
console.log('\n--- snapshot ---')
console.log(snapshot.text)
