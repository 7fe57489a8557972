/** A SessionDigest for unit tests: an empty session of 2026-03-02 with `partial` on top. */
import type { DigestItem, SessionDigest } from '../../src/engine/core/digest/session-digest.ts'

/** The session id the fixture digests carry unless told otherwise. */
export const FIXTURE_SESSION = '11111111-2222-3333-4444-555555555555'

/** An empty digest of FIXTURE_SESSION on 2026-03-02, with `partial`'s fields in place. */
export function fixtureDigest(partial: Partial<SessionDigest>): SessionDigest {
  return {
    sessionId: FIXTURE_SESSION,
    date: '2026-03-02',
    startedAt: '2026-03-02T09:00:00Z',
    endedAt: '2026-03-02T11:00:00Z',
    project: null,
    branch: null,
    files: [`${FIXTURE_SESSION}.jsonl`],
    summary: null,
    changes: [],
    commits: [],
    decisions: [],
    gotchas: [],
    done: [],
    open: [],
    preferences: [],
    ...partial,
  }
}

/** A digest item citing `sources`. */
export const fixtureItem = (text: string, ...sources: string[]): DigestItem => ({ text, sources })
