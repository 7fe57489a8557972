/**
 * The rules consolidation writes into the project's CLAUDE.md (seed 002 item 10,
 * docs/design/origins.md), in a section Somnus owns between two markers; nothing else in the file
 * changes. One rule per subject: a new rule on a subject already there (the per-task workflow, or a
 * rule saying nearly the same) replaces it, citing the sources of both, so three rounds of
 * consolidation leave one workflow rule, not three. A rule reads as a person would write it: the
 * workflow is one sentence, its steps in the order the sessions ran them.
 */
import { clip, inlineText } from '../../engine/core/markdown-text.ts'
import type { Crystal } from './consolidate-plan.ts'
import { generalizedText } from './generalize-text.ts'
import type { PatternEntry } from './pattern-entry.ts'

/** The marked CLAUDE.md section Somnus owns (item 10's every-task rules). */
export const CLAUDE_MD_START =
  '<!-- somnus:patterns:start (rules learned by `somnus patterns consolidate`; edit outside these markers) -->'
/** Where that section ends. */
export const CLAUDE_MD_END = '<!-- somnus:patterns:end -->'

/** A rule for CLAUDE.md: its subject, its sentence and the observations it came from. */
export interface ClaudeMdRule {
  subject: string
  text: string
  /** `<domain>.md <date> <id>` per observation. */
  sources: string[]
}

/** The subject every per-task command sequence shares. */
const WORKFLOW = 'workflow'

/** Two rules sharing at least this share of their words are about one subject. */
const SAME_SUBJECT = 0.5

/** The CLAUDE.md rule of `crystal`. */
export function claudeMdRuleOf(crystal: Crystal): ClaudeMdRule {
  const sources = crystal.members.map((member) => `${member.domain}.md ${member.date} ${member.id}`)
  if (crystal.members.some(isWorkflow)) {
    return { subject: WORKFLOW, text: workflowSentence(crystal.members), sources }
  }
  const [central] = crystal.members
  const general = (part: 'title' | 'details') =>
    generalizedText(crystal.members.map((member) => member[part])) ?? central?.[part] ?? ''
  // An entry that states its rule ("Rule: …") is that rule; others read as "title: details".
  const stated = /^Rule: (.+)$/.exec(general('details'))?.[1]
  const text = inlineText(
    central ? (stated ?? `${general('title')}: ${general('details')}`) : crystal.label,
  )
  return { subject: subjectOf(text), text: clip(text, 300), sources }
}

function isWorkflow(entry: PatternEntry): boolean {
  return entry.category === 'convention' && entry.tags.includes('workflow')
}

/**
 * The members' command sequences as one sentence: the steps most of them ran, in the order they
 * ran them on average ("For each task, run `a`, then `b`, then `c`.").
 */
export function workflowSentence(members: readonly Pick<PatternEntry, 'details'>[]): string {
  const runs = members.map((member) =>
    [...member.details.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string),
  )
  const seen = new Map<string, { count: number; position: number; order: number }>()
  for (const steps of runs) {
    for (const [index, step] of [...new Set(steps)].entries()) {
      const stat = seen.get(step) ?? { count: 0, position: 0, order: seen.size }
      stat.count += 1
      stat.position += index / Math.max(1, steps.length - 1)
      seen.set(step, stat)
    }
  }
  const needed = runs.length <= 2 ? 1 : runs.length / 2
  const steps = [...seen]
    .filter(([, stat]) => stat.count >= needed)
    .sort(
      (left, right) =>
        left[1].position / left[1].count - right[1].position / right[1].count ||
        left[1].order - right[1].order,
    )
    .map(([step]) => `\`${step}\``)
  if (steps.length === 0) return 'For each task, follow the same steps in the same order.'
  return `For each task, run ${steps.join(', then ')}.`
}

/** A rule's subject: what its distinctive words are about. */
function subjectOf(text: string): string {
  if (/^for each (?:task|piece of work)\b/i.test(text)) return WORKFLOW
  return [...wordsOf(text)].slice(0, 6).join('-') || 'rule'
}

function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .match(/[a-z0-9_./:-]{4,}/g)
      ?.filter((word) => !FILLER.has(word)) ?? [],
  )
}

const FILLER = new Set(
  'this that with from into when then than they them their there have each task rule should always never must every'.split(
    ' ',
  ),
)

/** A rule line of the section, read back: its subject, sentence and sources. */
function parseRuleLine(line: string): ClaudeMdRule {
  const comment =
    /\s*<!--\s*(?:somnus:rule ([\w.-]+);\s*)?consolidated from:\s*(.*?)\s*-->\s*$/.exec(line)
  const text = (comment ? line.slice(0, comment.index) : line).replace(/^- /, '').trim()
  return {
    subject: comment?.[1] ?? subjectOf(text),
    text,
    sources: (comment?.[2] ?? '')
      .split(',')
      .map((source) => source.trim())
      .filter(Boolean),
  }
}

function renderRuleLine(rule: ClaudeMdRule): string {
  return `- ${rule.text} <!-- somnus:rule ${rule.subject}; consolidated from: ${rule.sources.join(', ')} -->`
}

/** True when two rules are about one subject: the same key, or mostly the same words. */
function sameSubject(left: ClaudeMdRule, right: ClaudeMdRule): boolean {
  if (left.subject === right.subject) return true
  if (left.subject === WORKFLOW || right.subject === WORKFLOW) return false
  const a = wordsOf(left.text)
  const b = wordsOf(right.text)
  const smaller = a.size <= b.size ? a : b
  const larger = smaller === a ? b : a
  if (smaller.size === 0) return false
  let shared = 0
  for (const word of smaller) if (larger.has(word)) shared += 1
  return shared / smaller.size >= SAME_SUBJECT
}

/**
 * `claudeMd` with the Somnus section holding `rules`: a rule on a subject the section already has
 * replaces that line where it stands (the sources of both cited), others are added after; the
 * rest of the file is left exactly as it was. A file without the section gets it at the end.
 *
 * The section is a start marker followed by its end marker with no other start between: a stray
 * end marker above it, or a stray start marker, is the user's text and stays as it is (matching
 * it made every consolidation append another section). Sections an earlier version appended that
 * way are folded into the first: their rules merged, the copies removed.
 */
export function withClaudeMdRules(claudeMd: string | null, rules: readonly ClaudeMdRule[]): string {
  const text = claudeMd ?? ''
  const sections = somnusSections(text)
  const merged = sections
    .flatMap((section) =>
      text.slice(section.start + CLAUDE_MD_START.length, section.endMarker).split('\n'),
    )
    .filter((line) => line.startsWith('- '))
    .map(parseRuleLine)
  for (const rule of rules) {
    const at = merged.findIndex((known) => sameSubject(known, rule))
    if (at === -1) {
      merged.push(rule)
      continue
    }
    const known = merged[at] as ClaudeMdRule
    merged[at] = {
      subject: known.subject === WORKFLOW ? WORKFLOW : rule.subject,
      text: rule.text,
      sources: [...new Set([...known.sources, ...rule.sources])],
    }
  }
  // Earlier versions could leave two lines on one subject: the later stands.
  const one = merged.filter(
    (rule, index) => !merged.slice(index + 1).some((later) => sameSubject(later, rule)),
  )
  const section = [
    CLAUDE_MD_START,
    '## Learned rules (Somnus)',
    '',
    ...one.map(renderRuleLine),
    CLAUDE_MD_END,
  ].join('\n')
  const [first, ...copies] = sections
  if (first !== undefined) {
    let out = `${text.slice(0, first.start)}${section}`
    let from = first.end
    for (const copy of copies) {
      // A copy goes with the blank line an append put before it.
      out += text.slice(from, copy.start).replace(/\n\n$/, '\n')
      from = copy.end
    }
    return out + text.slice(from)
  }
  const separator =
    text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n'
  return `${text}${separator}${section}\n`
}

/** One Somnus section in CLAUDE.md: where its start marker begins, its end marker begins, it ends. */
interface SomnusSection {
  start: number
  endMarker: number
  end: number
}

/**
 * Every Somnus section of `text`, in order: each start marker with the first end marker after it,
 * when no other start marker comes between them (then the later start is the section's).
 */
function somnusSections(text: string): SomnusSection[] {
  const sections: SomnusSection[] = []
  let start = text.indexOf(CLAUDE_MD_START)
  while (start !== -1) {
    const endMarker = text.indexOf(CLAUDE_MD_END, start + CLAUDE_MD_START.length)
    if (endMarker === -1) break
    const next = text.indexOf(CLAUDE_MD_START, start + CLAUDE_MD_START.length)
    if (next !== -1 && next < endMarker) {
      start = next
      continue
    }
    sections.push({ start, endMarker, end: endMarker + CLAUDE_MD_END.length })
    start = text.indexOf(CLAUDE_MD_START, endMarker + CLAUDE_MD_END.length)
  }
  return sections
}
