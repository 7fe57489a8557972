/**
 * A session digest: what one Claude Code session did, built from its transcript's high-signal
 * material (compaction summaries, the wrap-up, commits, files changed, error → fix pairs, task
 * state, decisions, the user's own corrections). The shape follows
 * `../shared/examples/session-digest-258c7280.md`. Every item names the transcript records it came
 * from, so the brain can cite them.
 */

/** One statement of a digest and the transcript record ids (uuid prefixes) it came from. */
export interface DigestItem {
  text: string
  sources: string[]
}

/** Changes in one area of the project (a folder, or a theme grouping folders). */
export interface DigestArea {
  /** The folder or theme, e.g. `lib/spotter/transcripts/`. */
  area: string
  items: DigestItem[]
}

/** A session, digested. Later states supersede earlier ones before anything lands here. */
export interface SessionDigest {
  sessionId: string
  /** The day of the session's last record, YYYY-MM-DD (null when no record has a timestamp). */
  date: string | null
  /** First and last record timestamps (ISO). */
  startedAt: string | null
  endedAt: string | null
  /** The working directory and git branch the transcript records, when it does. */
  project: string | null
  branch: string | null
  /** The transcript files read: the main transcript, then its sub-agent files as `subagents/<name>`. */
  files: string[]
  /** One or two sentences: what the session set out to do and what came of it. */
  summary: DigestItem | null
  /** Files changed, grouped by area. */
  changes: DigestArea[]
  /** Commit messages, in order (subject lines). */
  commits: DigestItem[]
  /** Decisions with their reasons. */
  decisions: DigestItem[]
  /** Error → fix pairs: the real error line, its cause when known, then what fixed it. */
  gotchas: DigestItem[]
  /** State at the end: finished work (closed tasks, passing checks with their final figures). */
  done: DigestItem[]
  /** State at the end: what is still open (never something finished later in the session). */
  open: DigestItem[]
  /** The user's corrections and stated preferences, from the user's own words only. */
  preferences: DigestItem[]
  /** How the session worked (the commands it ran most); optional, added with the builder. */
  workflow?: DigestItem[]
}
