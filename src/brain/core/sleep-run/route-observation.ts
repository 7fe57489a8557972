/** Where a consolidated observation belongs in the brain (the REM-sleep decision tree, step 2). */
import type { Observation } from '../../../engine/core/model-results.ts'

/** What kind of raw material a unit id points at. */
export type UnitKind = 'bookmark' | 'session' | 'user' | 'assistant'

/** A destination: a file and a `## ` section in it. */
export interface Destination {
  path: string
  section: string
}

/** The core files `sleep run` edits, by role. */
export const CORE_FILES = {
  soul: 'core/0.soul.md',
  user: 'core/1.user.md',
  memory: 'core/2.memory.md',
  changelog: 'core/CHANGELOG.json',
} as const

const PREFERENCE =
  /\b(prefers?|preferred|always|never|please|likes?|dislikes?|hates?|wants?|don'?t want|rather)\b/i
const DECISION =
  /\b(decided|decision|chose|chosen|choose|will use|switched to|switching to|going with|instead of|opted|settled on|use \w+ for)\b/i
const ISSUE =
  /\b(error|errors|fails?|failed|failing|bug|broken|crash(?:es|ed)?|workaround|flaky|regression|known issue|doesn'?t work|does not work|timeout)\b/i

/** Finished work, said as such: it belongs in the changelog, never among the open issues. */
const FINISHED =
  /^(?:fixed|resolved|closed|completed|finished|implemented|added|removed|shipped|merged|pushed|done)\b/i

const ABOUT_THE_USER =
  /\b(the user|user|they|he|she)\s+(prefers?|wants?|likes?|dislikes?|hates?|asked)\b/i

/**
 * The section an observation goes to. A preference must come from the user's own words, or say
 * outright that it is the user's: bookmarks are the agent's tags, and an agent saying "always"
 * about its own plan is a rule or a decision, not the user's preference.
 */
export function routeObservation(
  observation: Observation,
  kindOf: (unitId: string) => UnitKind,
): Destination | null {
  const kinds = new Set(observation.sources.map(kindOf))
  const agentOnly = !kinds.has('user') && !kinds.has('bookmark')
  if (agentOnly && isNarration(observation.text)) return null
  const usersOwnWords = kinds.has('user') && PREFERENCE.test(observation.text)
  if (usersOwnWords || ABOUT_THE_USER.test(observation.text)) {
    return { path: CORE_FILES.user, section: 'Preferences' }
  }
  if (DECISION.test(observation.text))
    return { path: CORE_FILES.memory, section: 'Technical Decisions' }
  if (ISSUE.test(observation.text) && !FINISHED.test(observation.text.trim()))
    return { path: CORE_FILES.memory, section: 'Known Issues' }
  // Informational facts stay in the transcripts unless someone bookmarked them.
  if (observation.priority === 'GRN' && !kinds.has('bookmark')) return null
  return { path: CORE_FILES.memory, section: 'Active Memory' }
}

/** The agent talking about what it is about to do: process, not knowledge. */
const NARRATION =
  /^(?:i'll|i will|i'm going to|i am going to|i need|i'd|let me|let's|now\b|next\b|need to|continuing|ok\b|okay|good\b|great\b|expected\b|perfect\b|done\b|alright|here's|here is)/i

/**
 * True for narration ("Let me check the tests", "Now I'll update the layout:") and for fragments
 * of formatting that sentence splitting leaves behind (a markdown table row).
 */
export function isNarration(text: string): boolean {
  const trimmed = text.trim()
  return NARRATION.test(trimmed) || trimmed.endsWith(':') || trimmed.startsWith('|')
}

const CONDITION = /^(?:when|whenever|before|after|if|while)\s+(.+?),\s*(.+)$/i
const TRAILING_CONDITION = /^(.+?)\s+(?:when|whenever|before|while)\s+(.+?)\.?$/i
const STOP_WORDS = new Set(
  'about above after again also always before being could does doing during every from have having into just more most never only other over same should some such than that their them then there these they this those through under until very were what when where which while will with would your'.split(
    ' ',
  ),
)

/**
 * A "when X, remember Y" reminder hidden in a decision or preference, as a trigger pattern (the
 * condition's content words) and the full text as the reminder; null when there is no condition.
 */
export function triggerFor(text: string): { when: string; remind: string } | null {
  const sentence = text.trim()
  const leading = CONDITION.exec(sentence)
  const trailing = leading ? null : TRAILING_CONDITION.exec(sentence)
  const condition = leading?.[1] ?? trailing?.[2]
  if (!condition) return null
  const keywords = [...new Set(condition.toLowerCase().match(/[a-z0-9][a-z0-9._-]{3,}/g) ?? [])]
    .filter((word) => !STOP_WORDS.has(word))
    .slice(0, 3)
  if (keywords.length === 0) return null
  return { when: keywords.join(','), remind: sentence }
}
