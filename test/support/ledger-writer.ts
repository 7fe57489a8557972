/**
 * A separate OS process that writes the sleep ledger through the file store, for the concurrency
 * and crash tests of `fs-sleep-state-store.stress.test.ts`.
 *   once <stateDir> <sessionId> <score>   add one session, then exit
 *   loop <stateDir> <sessions> <chars>    rewrite a large ledger forever, printing "wrote <n>"
 * SOMNUS_TEST_STALE_MS sets the store's stale-lock time.
 */
import { createFsSleepStateStore } from '../../src/brain/adapters/fs/fs-sleep-state-store.ts'
import type { SessionRecord } from '../../src/brain/core/sleep-state.ts'

const [mode, stateDir, first, second] = process.argv.slice(2)
if (!stateDir || (mode !== 'once' && mode !== 'loop')) {
  process.stderr.write(
    'usage: ledger-writer.ts once <dir> <id> <score> | loop <dir> <sessions> <chars>\n',
  )
  process.exit(2)
}
const store = createFsSleepStateStore({
  stateDir,
  warn: (message) => process.stderr.write(`warn: ${message}\n`),
  staleMs: Number(process.env.SOMNUS_TEST_STALE_MS ?? 4_000),
})

function session(id: string, score: number, text: string): SessionRecord {
  return {
    session_id: id,
    transcript_path: `/transcripts/${id}.jsonl`,
    stopped_at: new Date().toISOString(),
    last_assistant_message: text,
    change_count: 1,
    tool_count: 1,
    score,
    task_slugs: [],
  }
}

if (mode === 'once') {
  const score = Number(second)
  await store.update((state) => ({
    state: {
      ...state,
      debt: state.debt + score,
      sessions: [session(first ?? 'missing-id', score, 'one update'), ...state.sessions],
    },
    result: null,
  }))
} else {
  const count = Number(first ?? 10)
  // Few sessions with long messages: the file is large (a kill often lands mid-write) while
  // parsing and validating it stay cheap, so most of each round is spent writing.
  const text = 'x'.repeat(Number(second ?? 1_000_000))
  for (let round = 1; ; round += 1) {
    await store.update((state) => ({
      state: {
        ...state,
        debt: round,
        sessions: Array.from({ length: count }, (_, index) =>
          session(`r${round}-${index}`, 1, text),
        ),
      },
      result: null,
    }))
    process.stdout.write(`wrote ${round}\n`)
  }
}
