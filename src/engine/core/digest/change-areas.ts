/**
 * Files changed, grouped by folder: what a reader scans first to see where a session worked. Each
 * file says in a few words what changed, from the best account the session holds: the compaction
 * summary's description, else what the agent announced before its edits, else the doc comment a
 * new file opens with; files with none of these are listed by name. Files outside the project
 * folder are shown from the home folder (`~/.claude/plans/`).
 */
import type { ChangedFile } from './digest-material.ts'
import { code, leadingSentences, shortId } from './digest-text.ts'
import type { DigestArea, DigestItem } from './session-digest.ts'

/** More folders than this are merged by their first two levels. */
const MAX_AREAS = 8

/** The changed files grouped by folder, in the order each folder was first touched. */
export function changeAreas(files: ChangedFile[], descriptions: Map<string, string>): DigestArea[] {
  let depth = Number.POSITIVE_INFINITY
  let groups = groupBy(files, depth)
  while (groups.size > MAX_AREAS && depth > 1) {
    depth = depth === Number.POSITIVE_INFINITY ? 2 : depth - 1
    groups = groupBy(files, depth)
  }
  return [...groups].map(([area, members]) => ({
    area,
    items: areaItems(area, members, descriptions),
  }))
}

function groupBy(files: ChangedFile[], depth: number): Map<string, ChangedFile[]> {
  const groups = new Map<string, ChangedFile[]>()
  for (const file of files) {
    const shown = shownPath(file.path)
    const folders = shown.split('/').slice(0, -1)
    // A path outside the project keeps its whole folder: its first levels say nothing (`~/`).
    const levels = shown.startsWith('/') || shown.startsWith('~') ? folders.length : depth
    const area = folders.length === 0 ? './' : `${folders.slice(0, levels).join('/')}/`
    const members = groups.get(area) ?? []
    members.push(file)
    groups.set(area, members)
  }
  return groups
}

function areaItems(
  area: string,
  members: ChangedFile[],
  descriptions: Map<string, string>,
): DigestItem[] {
  const items: DigestItem[] = []
  const plain: ChangedFile[] = []
  for (const file of members) {
    const description = descriptionOf(file, descriptions)
    if (description === undefined) {
      plain.push(file)
      continue
    }
    items.push({
      text: `${nameIn(area, file)}: ${leadingSentences(description, 200)}`,
      sources: file.uuids.map(shortId),
    })
  }
  if (plain.length > 0) {
    const shown = plain.slice(0, 12)
    const more = plain.length - shown.length
    items.push({
      text: `${shown.map((file) => nameIn(area, file)).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
      sources: [...new Set(shown.flatMap((file) => file.uuids.map(shortId)))].slice(0, 4),
    })
  }
  return items
}

/** The file's path inside its area, in code, marked `(new)` when the session created it. */
function nameIn(area: string, file: ChangedFile): string {
  const path = shownPath(file.path)
  const inside = area === './' ? path : path.slice(area.length)
  return `${code(inside === '' ? path : inside)}${file.created ? ' (new)' : ''}`
}

/** A path outside the project from the home folder (`/home/ann/x` → `~/x`); others as they are. */
function shownPath(path: string): string {
  return path.replace(/^\/(?:home|Users)\/[^/]+\//, '~/').replace(/^\/root\//, '~/')
}

function descriptionOf(file: ChangedFile, descriptions: Map<string, string>): string | undefined {
  const summarised = summaryDescription(file.path, descriptions)
  if (summarised !== undefined) return summarised
  if (file.notes.length > 0) return file.notes.slice(0, 2).join('; ')
  return file.doc === '' ? undefined : file.doc
}

function summaryDescription(path: string, descriptions: Map<string, string>): string | undefined {
  const exact = descriptions.get(path)
  if (exact !== undefined) return exact
  for (const [described, text] of descriptions) {
    if (path.endsWith(`/${described}`) || described.endsWith(`/${path}`)) return text
  }
  return undefined
}
