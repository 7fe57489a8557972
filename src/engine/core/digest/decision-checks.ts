/**
 * A decision is what the agent did, not what it weighed. The agent's thinking tries options out
 * ("Setting the sandbox to auto mode", "go with the Ash resource"), and many are dropped a few
 * lines later; so a candidate decision stands only when the session acted on it: the code names
 * of its choice (`render/2`, `session_cwd`, `TranscriptHighlighter`) show up in the edits or
 * commands that follow, before the user speaks again. A choice from thinking that names nothing
 * in code cannot be checked and is not taken.
 */

/** Where the rejected option starts: what follows names what was not done. */
const ALTERNATIVE = /\b(?:instead of|rather than|over|versus|vs\.?|not)\b/i

/** Code names: spans in backticks, and words that are names in code (`snake_case`, `CamelCase`, `a.b`, `f/2`). */
const CODE_WORD = /\b[A-Za-z_][\w]*(?:[._][\w]+)+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][a-z]+[A-Z]\w*\b/g

/** The code names the chosen part of `decision` mentions (arity and sigils removed). */
export function choiceNames(decision: string): Set<string> {
  const chosen = decision.split(ALTERNATIVE)[0] ?? decision
  const names = new Set<string>()
  for (const match of chosen.matchAll(/`([^`]+)`/g))
    for (const word of (match[1] as string).match(/[A-Za-z_][\w.]*/g) ?? [])
      if (word.length >= 3) names.add(word.replace(/\.$/, ''))
  for (const word of chosen.replace(/`[^`]*`/g, ' ').match(CODE_WORD) ?? []) names.add(word)
  return names
}

/** Candidates waiting for the session to act on them. */
export class DecisionChecks<T extends object> {
  private pending: Array<{ decision: T; names: Set<string> }> = []
  private readonly dropped = new Set<T>()

  /** Whether to keep `decision` (its text `text`) for now; from thinking it needs a code name. */
  admit(decision: T, text: string, fromThinking: boolean): boolean {
    const names = choiceNames(text)
    if (names.size === 0) return !fromThinking
    this.pending.push({ decision, names })
    return true
  }

  /** The session acted: `text` is an edit's input or a command. */
  acted(text: string): void {
    if (this.pending.length === 0) return
    this.pending = this.pending.filter((entry) => {
      for (const name of entry.names) if (text.includes(name)) entry.names.delete(name)
      return entry.names.size > 0
    })
  }

  /** The user spoke again (or the session ended): what was never acted on is dropped. */
  settle(): void {
    for (const entry of this.pending) this.dropped.add(entry.decision)
    this.pending = []
  }

  /** True when `decision` was never acted on. */
  isDropped(decision: T): boolean {
    return this.dropped.has(decision)
  }
}
