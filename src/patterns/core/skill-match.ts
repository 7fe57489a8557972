/**
 * Which skill a crystallized lesson belongs in. A lesson Somnus crystallized in an earlier round
 * gains its new sources in that skill, not a second skill (two `secret_key_base` skills); any
 * other lesson gets a name of its own, `-2` and on when its name is taken by another skill, a
 * user's, or another lesson of the same round (two lessons never share one SKILL.md).
 */
import { contentStems } from '../../engine/core/extractive/text.ts'
import {
  cosine,
  inverseDocumentFrequency,
  tfIdfVector,
} from '../../engine/core/extractive/tfidf.ts'
import type { Crystal } from './consolidate-plan.ts'

/** A skill folder of the project as found: its name, its SKILL.md, whether Somnus wrote it. */
export interface KnownSkill {
  name: string
  text: string
  somnus: boolean
}

/** At least this similar (TF-IDF over the lessons at hand), a crystal tells a skill's lesson. */
const SAME_LESSON = 0.4

/** What a skill teaches, for comparing: its title, its first paragraph and what to do. */
export function skillLesson(text: string): string {
  const body = text.replace(/^---[\s\S]*?\n---\n/, '')
  const title = /^# (.+)$/m.exec(body)?.[1] ?? ''
  const afterTitle = body.slice(body.indexOf(title) + title.length)
  const firstParagraph = afterTitle.trim().split('\n\n')[0] ?? ''
  const todo = /## What to do\n\n([\s\S]*?)(?:\n## |$)/.exec(body)?.[1] ?? ''
  return `${title}. ${firstParagraph}. ${todo}`
}

/** What a crystal teaches, for comparing. */
function crystalLesson(crystal: Crystal): string {
  return crystal.members
    .map((member) => `${member.title}. ${member.observation}. ${member.details}`)
    .join(' ')
}

/** The Somnus skill of `skills` that already tells `crystal`'s lesson (the most similar), or null. */
export function skillTellingSameLesson(
  crystal: Crystal,
  skills: readonly KnownSkill[],
): KnownSkill | null {
  const ours = skills.filter((skill) => skill.somnus)
  if (ours.length === 0) return null
  const texts = [crystalLesson(crystal), ...ours.map((skill) => skillLesson(skill.text))]
  const stems = texts.map(contentStems)
  const idf = inverseDocumentFrequency(stems)
  const [lesson, ...others] = stems.map((each) => tfIdfVector(each, idf))
  let best: KnownSkill | null = null
  let bestScore = SAME_LESSON
  others.forEach((vector, index) => {
    const score = cosine(lesson ?? new Map(), vector)
    if (score >= bestScore) {
      best = ours[index] ?? null
      bestScore = score
    }
  })
  return best
}

/** `base`, or `base-2`, `base-3`… (within Claude Code's 64 characters), whichever `taken` lacks. */
export function freeSkillName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base
  for (let suffix = 2; ; suffix += 1) {
    const name = `${base.slice(0, 64 - `-${suffix}`.length).replace(/-+$/, '')}-${suffix}`
    if (!taken.has(name)) return name
  }
}
