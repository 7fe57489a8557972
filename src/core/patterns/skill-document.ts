/**
 * A crystallized group as a Claude Code skill (seed 002 items 7, 8): `SKILL.md` with the `name` and
 * `description` frontmatter Claude Code lists to the model, the lesson, and the observations it
 * came from (one-directional provenance: patterns are pruned, the skill stays). A marker comment
 * says Somnus wrote the file, so a later consolidation updates only its own skills.
 */
import { clip, inlineText } from '../markdown-text.ts'
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
  const occurrences = citations.length
  const description = clip(
    `${capitalize(crystal.domain)} ${central.category.replace(/-/g, ' ')} seen in ${occurrences} sessions: ${inlineText(title).replace(/[.!?]+$/, '')}. Use when ${lowerFirst(inlineText(central.context)) || `working on ${crystal.domain}`}`,
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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

/** The marked CLAUDE.md section Somnus owns (item 10's every-task rules). */
export const CLAUDE_MD_START =
  '<!-- somnus:patterns:start (rules learned by `somnus patterns consolidate`; edit outside these markers) -->'
/** Where that section ends. */
export const CLAUDE_MD_END = '<!-- somnus:patterns:end -->'

/** One CLAUDE.md rule for a crystal: the rule, then its sources in a comment. */
export function claudeMdRuleOf(crystal: Crystal): string {
  const [central] = crystal.members
  const general = (part: 'title' | 'details') =>
    generalizedText(crystal.members.map((member) => member[part])) ?? central?.[part] ?? ''
  // An entry that states its rule ("Rule: …") is that rule; others read as "title: details".
  const stated = /^Rule: (.+)$/.exec(general('details'))?.[1]
  const rule = inlineText(
    central ? (stated ?? `${general('title')}: ${general('details')}`) : crystal.label,
  )
  const sources = crystal.members
    .map((member) => `${member.domain}.md ${member.date} ${member.id}`)
    .join(', ')
  return `- ${clip(rule, 300)} <!-- consolidated from: ${sources} -->`
}

/**
 * `claudeMd` with the Somnus section holding `rules` (new rules after the ones already there,
 * none twice); the rest of the file is left exactly as it was. A file without the section gets
 * it at the end.
 */
export function withClaudeMdRules(claudeMd: string | null, rules: readonly string[]): string {
  const text = claudeMd ?? ''
  const start = text.indexOf(CLAUDE_MD_START)
  const end = text.indexOf(CLAUDE_MD_END)
  const inside = start !== -1 && end > start ? text.slice(start + CLAUDE_MD_START.length, end) : ''
  const existing = inside.split('\n').filter((line) => line.startsWith('- '))
  const ruleText = (line: string) => line.replace(/ <!-- consolidated from:.*-->$/, '')
  const known = new Set(existing.map(ruleText))
  const merged = [...existing, ...rules.filter((rule) => !known.has(ruleText(rule)))]
  const section = [CLAUDE_MD_START, '## Learned rules (Somnus)', '', ...merged, CLAUDE_MD_END].join(
    '\n',
  )
  if (start !== -1 && end > start) {
    return `${text.slice(0, start)}${section}${text.slice(end + CLAUDE_MD_END.length)}`
  }
  const separator =
    text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'
  return `${text}${separator}${section}\n`
}
