/**
 * Reading the sessions of a sleep run as digests: the transcript's extractive draft, written into
 * the digest by the run's model, rendered as the document the brain keeps.
 */
import type { SessionDigest } from '../../engine/core/digest/session-digest.ts'
import { redactSecrets } from '../../engine/core/redact-secrets.ts'
import type { LanguageModel, Usage } from '../../engine/ports/language-model.ts'
import type { SessionDigestResult } from '../../engine/ports/session-digests.ts'
import { transcriptReadFrom } from '../core/ledger.ts'
import { sentencesOf } from '../core/sleep-run/changelog-entries.ts'
import { renderDigestDocument } from '../core/sleep-run/digest-document.ts'
import type { LandingDigest } from '../core/sleep-run/plan-sleep-run.ts'
import type { SessionRecord, SleepState } from '../core/sleep-state.ts'

/** What `readDigests` needs of the run's options. */
export interface DigestOptions {
  model: LanguageModel
  readDigest?: (session: SessionRecord, since: string | null) => Promise<SessionDigestResult>
  signal?: AbortSignal | undefined
}

/** No tokens used. */
export const NO_USAGE: Usage = { input_tokens: 0, output_tokens: 0 }

/** The sum of two usages. */
export function addUsage(left: Usage, right: Usage): Usage {
  return {
    input_tokens: left.input_tokens + right.input_tokens,
    output_tokens: left.output_tokens + right.output_tokens,
  }
}

/** What reading the sessions' digests found. */
export interface DigestReading {
  /** By session id: the digest to land, or null for a session with nothing new to digest. */
  bySession: Map<string, LandingDigest | null>
  /** Sessions whose transcript cannot be read now: they wait for the next sleep. */
  pending: SessionRecord[]
  usage: Usage
  model: string | null
}

/**
 * Each session's digest, written by the model from the transcript's draft. A session without a
 * transcript path has no digest (its closing message is used); one whose transcript is missing or
 * unreadable stays pending, and the run says so.
 */
export async function readDigests(
  state: SleepState,
  options: DigestOptions,
  progress: (message: string) => void,
): Promise<DigestReading> {
  const reading: DigestReading = { bySession: new Map(), pending: [], usage: NO_USAGE, model: null }
  const { readDigest } = options
  if (!readDigest) return reading
  const sessions = state.sessions.filter((session) => session.transcript_path)
  for (const [index, session] of sessions.entries()) {
    progress(`digesting session ${index + 1}/${sessions.length}: ${session.session_id}`)
    const result = await readDigest(session, transcriptReadFrom(state, session.session_id))
    if (!('digest' in result)) {
      const why = 'missing' in result ? 'its transcript is missing' : result.unreadable
      progress(`session ${session.session_id} left for the next sleep: ${why}`)
      reading.pending.push(session)
      continue
    }
    // Nothing new in the transcript: the session lands by its closing message, as without digests.
    if (isEmptyDigest(result.digest)) continue
    const call = await options.model.digestSession({
      draft: result.digest,
      signal: options.signal,
    })
    reading.usage = addUsage(reading.usage, call.usage)
    reading.model = call.model
    const digest = withClosingMessage(call.value, session)
    reading.bySession.set(session.session_id, { digest, text: renderDigestDocument(digest) })
  }
  return reading
}

/** True when a digest holds no item: the session added nothing since the last sleep. */
function isEmptyDigest(digest: SessionDigest): boolean {
  return (
    digest.summary === null &&
    digest.changes.length === 0 &&
    [
      digest.commits,
      digest.decisions,
      digest.gotchas,
      digest.done,
      digest.open,
      digest.preferences,
    ].every((items) => items.length === 0)
  )
}

/**
 * The digest, with the closing message the Stop hook kept as its summary when the transcript gave
 * none: the ledger's copy is cleared by this run, so its content must be in the brain first.
 */
function withClosingMessage(digest: SessionDigest, session: SessionRecord): SessionDigest {
  if (digest.summary !== null || !session.last_assistant_message) return digest
  const text = leadingSentences(redactSecrets(session.last_assistant_message), SUMMARY_CHARS)
  return { ...digest, summary: { text, sources: [session.session_id] } }
}

/** A summary taken from a closing message keeps whole sentences up to about this length. */
const SUMMARY_CHARS = 400

function leadingSentences(text: string, maxChars: number): string {
  const flat = text
    .replace(/[#*`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const sentences = sentencesOf(flat)
  let kept = ''
  for (const sentence of sentences) {
    const next = `${kept} ${sentence.trim()}`.trim()
    if (kept !== '' && next.length > maxChars) break
    kept = next
  }
  return kept
}
