/**
 * The prompts behind each consolidation skill. The definitions are the seeds' own words (seed 004's
 * RED / YLW / GRN, seed 002's nine pattern categories and placement rule) (docs/design/origins.md),
 * so an LLM and the extractive model sort material by the same rules.
 */
import type { Unit } from '../../ports/language-model.ts'

/** The rules every reply follows: one JSON object that cites only ids it was given. */
export const REPLY_RULES = `Reply with exactly one JSON object and nothing else: no prose, no code fences.
Every "sources" (and "members") array lists unit ids copied exactly from the input; never cite an id
that is not in the input. Write facts in plain language; never copy the value of a secret (API key,
password, token): say that it exists and where, not what it is.`

/** Seed 004's priorities. */
const PRIORITY_DEFINITIONS = `- RED: critical. Commitments, bans, credentials, deadlines, key wins. Survives all pruning.
- YLW: important. Project status, PR states, patterns learned. Pruned when superseded.
- GRN: informational. Tool outputs, environment facts, minor details. Pruned after 48h.`

/** Seed 002's nine categories, in the encode hook's order. */
const PATTERN_CATEGORIES = `1. debugging insights whose root cause was unclear at first
2. tool failures and how they were resolved
3. framework or library workarounds
4. undocumented gotchas
5. codebase conventions
6. user preferences
7. brand voice and messaging
8. approaches that proved effective
9. architectural decisions`

/** System prompt for `summarize`. */
export function summarizeSystem(budgetTokens: number): string {
  return `You compress an agent's experience into a faithful summary of at most ${budgetTokens} tokens
(about ${Math.max(1, Math.floor(budgetTokens * 0.75))} words). Keep what carries facts: names, numbers,
dates, decisions, corrections, errors and their fixes, preferences, commitments. Drop greetings,
chatter and repetition. Never invent anything that is not in the units.
${REPLY_RULES}
Shape: {"text": "<the summary>", "sources": ["<id of each unit whose content the summary keeps>"]}`
}

/** System prompt for `extractObservations`. */
export const OBSERVATIONS_SYSTEM = `You are the consolidating mind of an agent. Distil what happened in
this session into prioritized observations: each one short, self-contained fact (who, what, numbers,
dates, names), with a priority:
${PRIORITY_DEFINITIONS}
Merge units that state the same fact into one observation citing all of them. Skip chatter.
"time" is the HH:MM of the source unit's timestamp when the unit has one; omit it otherwise.
${REPLY_RULES}
Shape: {"observations": [{"priority": "RED" | "YLW" | "GRN", "text": "<fact>", "time": "HH:MM",
"sources": ["<unit id>", ...]}]}
An empty list is a valid answer when nothing is worth keeping.`

/** System prompt for `extractPatterns`. */
export const PATTERNS_SYSTEM = `You review an agent's session for reusable patterns, in these categories:
${PATTERN_CATEGORIES}
Each pattern is one entry: "domain" (a short lowercase slug for the area, such as "rails", "git",
"testing", "typescript"; it becomes a file name), "title", "observation" (what was learned),
"details" (the specific fix, command, or rule), "context" (when and where it applies), "tags"
(lowercase keywords). Placement: add the tag "universal" when the pattern applies to virtually every
task in the codebase (style, conventions, error handling, project structure: it belongs in CLAUDE.md);
leave it out for knowledge needed only in one area (framework workarounds, library gotchas, API
patterns, tooling quirks: it belongs in a skill for its domain).
Skip anything not notable; an empty list is a valid answer.
${REPLY_RULES}
Shape: {"patterns": [{"domain": "...", "title": "...", "observation": "...", "details": "...",
"context": "...", "tags": ["..."], "sources": ["<unit id>", ...]}]}`

/** System prompt for `groupSimilar`. */
export function groupSystem(threshold: number | undefined): string {
  const strictness =
    threshold === undefined
      ? ''
      : `\nSimilarity threshold: ${threshold} on a 0 to 1 scale; group only units at least that similar in meaning (higher is stricter).`
  return `You find statements that repeat the same idea: the same fact, rule, preference or lesson,
even when worded differently. Put such units in one group with a label that states their common
theme in a few words. A unit belongs to at most one group. Leave out units that repeat nothing:
every group has at least two members.${strictness}
${REPLY_RULES}
Shape: {"groups": [{"label": "<common theme>", "members": ["<unit id>", "<unit id>", ...]}]}
An empty list is a valid answer.`
}

/** System prompt for `reflect` (seed 004's REFLECTION and PRIORITY). */
export const REFLECT_SYSTEM = `You are the consolidating mind of an agent, looking back at its recent
observations. Write a brief reflection on its progress: what went well, what did not, what it keeps
repeating. Be honest. Then name the single most important next thing to do, in one line of at most
200 characters.
${REPLY_RULES}
Shape: {"reflection": "<a few sentences>", "priority": "<the next priority>",
"sources": ["<id of each unit the reflection draws on>"]}`

/** The user prompt: the task, then the units as one JSON object per line, so ids are unambiguous. */
export function unitsPrompt(task: string, units: Unit[]): string {
  const lines = units.map((unit) =>
    JSON.stringify({
      id: unit.id,
      ...(unit.speaker === undefined ? {} : { speaker: unit.speaker }),
      ...(unit.timestamp === undefined ? {} : { timestamp: unit.timestamp }),
      text: unit.text,
    }),
  )
  return `${task}\n\nUnits (one JSON object per line):\n${lines.join('\n')}`
}

/** The note appended when a reply was rejected, so the second attempt can fix exactly that. */
export function correctionNote(problem: string): string {
  return `\n\nYour previous reply was rejected: ${problem}\nReply again with only the corrected JSON object.`
}

/** The note appended when a summary came back over budget. */
export function shorterNote(tokens: number, budgetTokens: number): string {
  return `\n\nYour previous summary used ${tokens} tokens; the limit is ${budgetTokens}. Write a shorter one: keep the most important facts and drop the rest.`
}
