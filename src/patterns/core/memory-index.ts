/**
 * Reference lines for crystallized skills in Claude Code's auto memory (seed 002 items 5, 6,
 * docs/design/origins.md). Claude Code loads MEMORY.md up to 200 lines and 25,000 bytes
 * (research/seed-systems.md 9.2), so a line is added only while the file stays inside both; only
 * lines that carry Somnus's marker are ever changed or removed, never the user's own.
 */
import { clip, inlineText } from '../../engine/core/markdown-text.ts'

/** Claude Code's limits on MEMORY.md (`MAX_ENTRYPOINT_LINES`, `MAX_ENTRYPOINT_BYTES`). */
export const MEMORY_MAX_LINES = 200
/** Bytes Claude Code loads of MEMORY.md. */
export const MEMORY_MAX_BYTES = 25_000

const MARKER = /\s*<!-- somnus:skill ([a-z0-9-]+) -->\s*$/

/** A skill as MEMORY.md references it. */
export interface SkillReference {
  name: string
  /** Project-relative path of its SKILL.md. */
  path: string
  description: string
}

/** The one line for `skill`, in the index style Claude Code's own memory uses. */
export function memoryLineOf(skill: SkillReference): string {
  return `- [${skill.name}](${skill.path}) — ${clip(inlineText(skill.description), 140)} <!-- somnus:skill ${skill.name} -->`
}

/** The skills Somnus lines reference, by name, in order. */
export function somnusSkillsIn(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const name = MARKER.exec(line)?.[1]
    return name ? [name] : []
  })
}

/** What the update did. */
export interface MemoryIndexUpdate {
  text: string
  added: string[]
  removed: string[]
  /** Skills left out because the file would pass a limit. */
  skipped: string[]
}

/**
 * MEMORY.md with one Somnus line per skill of `add` (an existing line refreshed in place) and
 * without the Somnus lines of `remove` (skills gone, or now covered by another) or their repeats.
 * Lines without the marker are kept byte for byte.
 */
export function updateMemoryIndex(
  text: string | null,
  add: readonly SkillReference[],
  remove: ReadonlySet<string>,
): MemoryIndexUpdate {
  const lines = text === null || text === '' ? [] : text.replace(/\n$/, '').split('\n')
  const removed: string[] = []
  const seen = new Set<string>()
  const wanted = new Map(add.map((skill) => [skill.name, memoryLineOf(skill)]))
  const kept: string[] = []
  for (const line of lines) {
    const name = MARKER.exec(line)?.[1]
    if (name === undefined) {
      kept.push(line)
    } else if (remove.has(name) || seen.has(name)) {
      removed.push(name)
    } else {
      seen.add(name)
      kept.push(wanted.get(name) ?? line)
    }
  }
  const added: string[] = []
  const skipped: string[] = []
  for (const [name, line] of wanted) {
    if (seen.has(name)) continue
    const next = [...kept, line]
    if (next.length > MEMORY_MAX_LINES || utf8Bytes(`${next.join('\n')}\n`) > MEMORY_MAX_BYTES) {
      skipped.push(name)
      continue
    }
    kept.push(line)
    added.push(name)
  }
  return { text: kept.length === 0 ? '' : `${kept.join('\n')}\n`, added, removed, skipped }
}

function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length
}
