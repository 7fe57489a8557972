/**
 * A process acting on one creature folder, for the multi-process and kill -9 tests. It prints one
 * line per acknowledged write (`ACK <token>`: the call returned, so the line must be on disk) and
 * `END` when done.
 *   act <folder> <worker> <rounds>: per round a message and an action, a 60 s sleep every 10 rounds
 *   churn <folder> <worker>: cycles of 12 messages and 6 actions then a consolidating sleep, forever
 *   tally <folder> <worker>: actions only, forever, never tired (fatigueLimit 1,000,000)
 * The folder's mind.json sets minDreamIntervalMs to 0, so every sleep of 30 s or more dreams.
 */
import { createMind } from '../../src/mind/create-mind.ts'

const [mode, folder, worker] = process.argv.slice(2)
const mind = createMind({
  folder: folder as string,
  config:
    mode === 'tally'
      ? { fatigueWarning: 1_000_000, fatigueLimit: 1_000_000 }
      : { minDreamIntervalMs: 0 },
})
const ack = (token: string) => process.stdout.write(`ACK ${token}\n`)
process.stdout.write('READY\n')

if (mode === 'act') {
  const rounds = Number(process.argv[5])
  for (let round = 1; round <= rounds; round += 1) {
    const message = `w${worker}-m${round}`
    await mind.record({
      role: 'user',
      content: `Worker ${worker} says ${message} about the deploy.`,
    })
    ack(message)
    const action = `w${worker}-a${round}`
    await mind.action({ tool: 'bash', content: `echo ${action} -> ok` })
    ack(action)
    if (round % 10 === 0) await mind.sleep({ seconds: 60 })
  }
} else if (mode === 'churn') {
  for (let cycle = 1; ; cycle += 1) {
    for (let index = 1; index <= 12; index += 1) {
      const token = `w${worker}-c${cycle}-m${index}`
      await mind.record({
        role: 'user',
        name: 'Ada',
        content: `Note ${token}: the release of project ${index % 7} moved to ${1 + (index % 28)} March; I prefer small PRs.`,
      })
      ack(token)
      if (index % 2 === 0) {
        const action = `w${worker}-c${cycle}-a${index}`
        await mind.action({ tool: 'bash', content: `gh pr view ${index} -> ${action} merged` })
        ack(action)
      }
    }
    await mind.sleep({ seconds: 60 })
    await mind.wake()
  }
} else if (mode === 'tally') {
  for (let index = 1; ; index += 1) {
    const token = `w${worker}-t${index}`
    await mind.action({ tool: 'bash', content: `echo ${token} -> ok` })
    ack(token)
  }
}
process.stdout.write('END\n')
