/** Use case: how tired the brain is and what is waiting to be consolidated (`sleep status`). */
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import {
  levelFor,
  type ScoringPolicy,
  type SleepLevel,
} from '../../engine/core/scoring/scoring-policy.ts'
import type { SessionRecord, SleepHistoryEntry } from '../core/sleep-state.ts'
import type { Brain } from './brain.ts'
import { policyOf } from './brain-scoring-policy.ts'

/** How many history entries the status carries (the snapshot shows the last 3 too). */
const RECENT_HISTORY = 3

/** The sleep status, with the seed's field names (it is also the `sleep status --json` output). */
export interface SleepStatus {
  debt: number
  level: SleepLevel
  policy: ScoringPolicy['name']
  thresholds: ScoringPolicy['thresholds']
  last_sleep: string | null
  last_sleep_summary: string | null
  sleep_started_at: string | null
  sessions_since_last_sleep: number
  /** Newest first; `score: null` means pending (transcript not analysed yet). */
  sessions: SessionRecord[]
  bookmarks_pending: number
  /** The latest consolidations, newest first. */
  recent_history: SleepHistoryEntry[]
}

/** Reads the ledger and history and describes them. */
export async function getSleepStatus(brain: Brain): Promise<SleepStatus> {
  const [state, history] = await Promise.all([brain.state.read(), brain.state.readHistory()])
  const policy = policyOf(brain)
  return {
    debt: state.debt,
    level: levelFor(policy, state.debt),
    policy: policy.name,
    thresholds: policy.thresholds,
    last_sleep: state.last_sleep,
    last_sleep_summary: state.last_sleep_summary,
    sleep_started_at: state.sleep_started_at,
    sessions_since_last_sleep: state.sessions_since_last_sleep,
    // A ledger written before redaction existed may still hold a secret in a closing message.
    sessions: state.sessions.map((session) =>
      session.last_assistant_message === null
        ? session
        : { ...session, last_assistant_message: redactSecrets(session.last_assistant_message) },
    ),
    bookmarks_pending: state.bookmarks.length,
    recent_history: history.slice(0, RECENT_HISTORY),
  }
}
