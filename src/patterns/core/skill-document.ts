/**
 * A crystallized group as a Claude Code skill (seed 002 items 7, 8, docs/design/origins.md):
 * `SKILL.md` with the `name` and `description` frontmatter Claude Code lists to the model, the
 * lesson, and the observations it came from (one-directional provenance: patterns are pruned, the
 * skill stays). A marker comment says Somnus wrote the file, so a later consolidation updates only
 * its own skills.
 */
import { clip, inlineText } from '../../engine/core/markdown-text.ts'
import type { Crystal } from './consolidate-plan.ts'
import { generalizedText } from './generalize-text.ts'
import type { PatternEntry } from './pattern-entry.ts'

/** First line of the body of every skill and section Somnus writes. */
export const SOMNUS_SKILL_MARKER =
  '<!-- somnus:skill (written by `somnus patterns consolidate`; delete this line to keep your own edits) -->'

/** Claude Code skill names: lowercase letters, digits and hyphens, at most 64 characters. */
export function skillNameOf(crystal: Pick<Crystal, 'domain' | 'label'>): string {
  const words = crystal.label
    .toLowerCase()
    .replace(/`[^`]*`/g, (code) => code.replace(/[^a-z0-9]+/g, '-'))
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word.length > 2 && !FILLER.has(word) && word !== crystal.domain)
  const name = [crystal.domain, ...words.slice(0, 6)].join('-').replace(/-+/g, '-')
  return name.slice(0, 64).replace(/-+$/, '')
}

const FILLER = new Set(
  'the and for with that this from into when then than was were are has have had its not but use used using can should would will'.split(
    ' ',
  ),
)

/** A citation line: which domain file, day and entry it came from, and the session. */
export function citationOf(entry: PatternEntry): string {
  const session = entry.sources[0] ?? 'unknown session'
  return `${entry.domain}.md ${entry.date} \`${entry.id}\` (session ${session}): ${inlineText(clip(entry.title, 120))}`
}

/** The citations an existing Somnus skill already lists (its `## Sources` bullets). */
export function citationsIn(skillText: string): string[] {
  const start = skillText.indexOf('\n## Sources\n')
  if (start === -1) return []
  return skillText
    .slice(start + '\n## Sources\n'.length)
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2))
}

/** True when Somnus wrote the file and may replace it. */
export function isSomnusSkill(text: string): boolean {
  return text.includes(SOMNUS_SKILL_MARKER)
}

/** The SKILL.md text; `earlier` citations (from the skill as it was) are kept before the new ones. */
export function renderSkill(
  crystal: Crystal,
  name: string,
  earlier: readonly string[] = [],
): string {
  const [central] = crystal.members
  if (!central) throw new Error('a crystal has members')
  const members = crystal.members
  // The same lesson from several sessions, told once where only a name or an id differs.
  const told = (part: 'title' | 'observation' | 'details' | 'context'): string[] => {
    const texts = members.map((member) => member[part])
    const general = generalizedText(texts)
    return general === null ? [central[part], ...texts.slice(1)] : [general]
  }
  const [title = central.title] = told('title')
  const [observation = central.observation] = told('observation')
  const citations = [...new Set([...earlier, ...crystal.members.map(citationOf)])]
  const sessions = sessionsCited(citations)
  // What the skill does, then when: a gotcha's fix says more than its title, which the
  // situation repeats.
  const [details = central.details] = told('details')
  const fix = /\bFix: (.+)$/.exec(inlineText(details))?.[1]
  const what = fix && GOTCHA.has(central.category) ? `Fix: ${fix}` : inlineText(title)
  const description = clip(
    `${what.replace(/[.!?:]+$/, '')}. Use when ${situationOf(central, observation)} (seen in ${sessions} ${sessions === 1 ? 'session' : 'sessions'}).`,
    900,
  )
  const dates = [...new Set(crystal.members.map((member) => member.date))].join(', ')
  const unique = (values: string[]) => [
    ...new Set(values.map((value) => inlineText(value)).filter((value) => value !== '')),
  ]
  return [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    SOMNUS_SKILL_MARKER,
    `<!-- consolidated from: ${crystal.domain}.md ${dates} -->`,
    '',
    `# ${inlineText(title)}`,
    '',
    inlineText(observation),
    '',
    '## What to do',
    '',
    ...unique(told('details')).map((line) => `- ${line}`),
    '',
    '## When it applies',
    '',
    ...unique(told('context')).map((line) => `- ${line}`),
    '',
    '## Sources',
    '',
    ...citations.map((citation) => `- ${citation}`),
    '',
  ].join('\n')
}

/** Categories whose lesson is a symptom and its fix. */
const GOTCHA: ReadonlySet<string> = new Set([
  'gotcha',
  'tool-failure',
  'workaround',
  'debugging-insight',
])

/** How many distinct sessions `citations` name (an entry is one observation; a session may give several). */
export function sessionsCited(citations: readonly string[]): number {
  const sessions = citations.map(
    (citation) => /\(session ([^)]+)\)/.exec(citation)?.[1] ?? citation,
  )
  return new Set(sessions).size
}

/**
 * The situation a skill is for, as Claude Code reads it to decide when to load the skill: the
 * tool and its symptom for a failure (`` `git push` fails with `… no upstream branch.` ``), what
 * a hook reports after an edit, where a decision applies, else the lesson's context.
 */
function situationOf(central: PatternEntry, observation: string): string {
  const said = inlineText(observation).replace(/[.!]+$/, '')
  if (/^`[^`]+` fails with /.test(said)) return said
  const hook = /^After an edit, a hook reports (.+)$/.exec(said)?.[1]
  if (hook) return `a hook reports ${hook} after an edit`
  const context = inlineText(central.context).replace(/[.!]+$/, '')
  if (central.category === 'architectural-decision') {
    const around =
      /^Design choices (around .+? in this project|in this project(?: \([^)]*\))?)/.exec(
        context,
      )?.[1]
    return around ? `making design choices ${around}` : lowerFirst(context)
  }
  if (GOTCHA.has(central.category)) return `you run into this: ${said}`
  return lowerFirst(context) || `working on ${central.domain}`
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}
