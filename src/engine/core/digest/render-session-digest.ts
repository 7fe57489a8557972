/**
 * A SessionDigest as markdown, in the reference digest's shape: frontmatter (session, date,
 * project, sources), Summary, Changes by area, Decisions, Gotchas, State at the end, Working
 * style. Every bullet ends with `<!-- src: … -->` naming its records. Empty sections are left
 * out (no orphan headings), and item text is flattened to one line so it can never open a list
 * of its own (no double bullets).
 */
import { renderFrontmatter } from '../frontmatter.ts'
import { inlineText } from '../markdown-text.ts'
import type { DigestItem, SessionDigest } from './session-digest.ts'

/** The digest as a markdown document. */
export function renderSessionDigest(digest: SessionDigest): string {
  const body: string[] = []
  if (digest.summary !== null) body.push(`**Summary:** ${line(digest.summary)}`, '')
  const changes = changeLines(digest)
  if (changes.length > 0) body.push('## Changes', ...changes)
  section(
    body,
    'Decisions',
    digest.decisions.map((entry) => bullet(entry)),
  )
  section(
    body,
    'Gotchas',
    digest.gotchas.map((entry) => bullet(entry)),
  )
  section(body, 'State at the end', [
    ...digest.done.map((entry) => bullet(entry, 'Done')),
    ...digest.open.map((entry) => bullet(entry, 'Open')),
  ])
  section(
    body,
    'Working style',
    [...digest.preferences, ...(digest.workflow ?? [])].map((entry) => bullet(entry)),
  )
  const project = [digest.project, digest.branch === null ? null : `branch ${digest.branch}`]
    .filter((part) => part !== null)
    .join(', ')
  const frontmatter = {
    session: digest.sessionId,
    date: digest.date ?? undefined,
    project: project === '' ? undefined : project,
    sources: digest.files,
  }
  return renderFrontmatter(frontmatter, `\n${body.join('\n').trimEnd()}\n`)
}

function changeLines(digest: SessionDigest): string[] {
  const lines: string[] = []
  for (const area of digest.changes) {
    if (area.items.length === 0) continue
    lines.push(`**${inlineText(area.area)}**`, ...area.items.map((entry) => bullet(entry)), '')
  }
  if (digest.commits.length > 0)
    lines.push('**Commits**', ...digest.commits.map((entry) => bullet(entry)), '')
  return lines
}

function section(body: string[], title: string, lines: string[]): void {
  if (lines.length === 0) return
  body.push(`## ${title}`, ...lines, '')
}

function bullet(entry: DigestItem, label?: string): string {
  return `- ${label === undefined ? '' : `${label}: `}${line(entry)}`
}

/** The item's text on one line (list markers at its start removed), then its provenance. */
function line(entry: DigestItem): string {
  const text = inlineText(entry.text).replace(/^(?:[-*+]\s+)+/, '')
  return entry.sources.length === 0 ? text : `${text} <!-- src: ${entry.sources.join(', ')} -->`
}
