/** An error → fix pair as the digest keeps it, and the changes that made the fix. */

/** Something the session did while a failure was open. */
export interface Change {
  kind: 'edit' | 'command'
  /** The changed file (edits). */
  path: string
  /** The agent's words about the change, else the code it added, else the command. */
  text: string
  /** Lines the change added that are assertions (a test's expectation, not the code under test). */
  assertion: boolean
}

/** A failure and, when the session fixed it, what fixed it. */
export interface ErrorFix {
  /** Which command or tool failed (`mix test`, `git push`, `Skill`): a rerun of it is the test. */
  key: string
  command: string
  errorLine: string
  /** The error line and the output's other error lines, numbers left out: the same failure again has the same. */
  signature: string
  /** Arguments of the command that its output named (`priv/static/assets/app.css`): a fix must touch them. */
  mentions: string[]
  /** The agent's explanation right after the failure, when it gave one. */
  cause: string
  /** What the session did between the failure and the run that showed it fixed. */
  changes: Change[]
  /** Files edited between the failure and the fix. */
  edits: string[]
  /** What fixed it, in words ('' until fixed, or when only a command fixed it). */
  fix: string
  /** The command that passed, when it differs from the failing one. */
  fixCommand: string
  fixed: boolean
  /** Record ids: the failing result first, then the fix. */
  sources: string[]
  /** Reported by a hook (compile errors after an edit) rather than by a failing call. */
  fromHook: boolean
  /** How many compaction summaries came before it (a summary already covers earlier ones). */
  epoch: number
}
