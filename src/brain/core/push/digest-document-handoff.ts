/**
 * A session digest as the brain keeps it (`knowledge/sessions/<date>-<session>.md`, rendered by
 * engine/core/digest/render-session-digest.ts) read back into a handoff: Summary and Changes are what the
 * session experienced, Decisions what it learned, Gotchas what it noticed, Done its story, Open
 * what to remember, Working style what the agent is asked to become. The record ids of every
 * `<!-- src: … -->` become the handoff's sources.
 */
import { fieldText, parseFrontmatter } from '../../../engine/core/frontmatter.ts'
import type { HandoffInput } from '../../../service/core/handoff.ts'

const SOURCE_COMMENT = /\s*<!--\s*src:\s*([^>]*?)\s*-->/g

/** The text of a line without its source comments, and the ids they named. */
function withoutSources(line: string, sources: Set<string>): string {
  for (const match of line.matchAll(SOURCE_COMMENT)) {
    for (const id of (match[1] ?? '').split(',')) if (id.trim() !== '') sources.add(id.trim())
  }
  return line.replace(SOURCE_COMMENT, '').trimEnd()
}

/** Lines of the document's body by their `## ` section ('' for the lines before the first). */
function sections(body: string): Map<string, string[]> {
  const bySection = new Map<string, string[]>([['', []]])
  let current = ''
  for (const line of body.split('\n')) {
    const heading = /^## (.+)$/.exec(line)
    if (heading?.[1]) {
      current = heading[1].trim()
      bySection.set(current, [])
    } else if (line.trim() !== '') bySection.get(current)?.push(line)
  }
  return bySection
}

const text = (lines: readonly string[]) => (lines.length === 0 ? null : lines.join('\n'))

/** `YYYY-MM-DD` as an instant, or nothing. */
function createdAt(date: string | null): { created_at?: string } {
  if (date === null || Number.isNaN(Date.parse(date))) return {}
  return { created_at: new Date(date).toISOString() }
}

/** The handoff a digest document stands for, or null when it names no session. */
export function handoffFromDigestDocument(
  document: string,
  tags: readonly string[],
  handoffId: (sessionId: string) => string,
): HandoffInput | null {
  const { data, body } = parseFrontmatter(document)
  const sessionId = fieldText(data, 'session')
  if (sessionId === null || sessionId.trim() === '') return null
  const sources = new Set<string>([sessionId])
  const parts = new Map(
    [...sections(body)].map(([title, lines]) => [
      title,
      lines.map((line) => withoutSources(line, sources)),
    ]),
  )
  const summary = (parts.get('') ?? []).map((line) => line.replace(/^\*\*Summary:\*\*\s*/, ''))
  const state = parts.get('State at the end') ?? []
  const project = fieldText(data, 'project')
  return {
    handoff_id: handoffId(sessionId),
    session_id: sessionId,
    with_whom: 'claude-code',
    experienced: text([...summary, ...(parts.get('Changes') ?? [])]),
    noticed: text(parts.get('Gotchas') ?? []),
    learned: text(parts.get('Decisions') ?? []),
    story: text(state.filter((line) => line.startsWith('- Done:'))),
    becoming: text(parts.get('Working style') ?? []),
    remember: text(state.filter((line) => !line.startsWith('- Done:'))),
    tags: [...tags, ...(project === null ? [] : [`project:${project}`.slice(0, 100)])],
    ...createdAt(fieldText(data, 'date')),
    sources: [...sources],
  }
}
