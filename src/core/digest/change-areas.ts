/**
 * Files changed, grouped by folder: what a reader scans first to see where a session worked. A
 * file the compaction summary described keeps that description; the others are listed by name.
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
    const folders = file.path.split('/').slice(0, -1)
    const area = folders.length === 0 ? './' : `${folders.slice(0, depth).join('/')}/`
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
    const description = descriptionOf(file.path, descriptions)
    if (description === undefined) {
      plain.push(file)
      continue
    }
    items.push({
      text: `${nameIn(area, file)}: ${leadingSentences(description, 220)}`,
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

/** The file's path inside its area, in code, marked `(new)` when it was written whole first. */
function nameIn(area: string, file: ChangedFile): string {
  const inside = area === './' ? file.path : file.path.slice(area.length)
  return `${code(inside === '' ? file.path : inside)}${file.created ? ' (new)' : ''}`
}

function descriptionOf(path: string, descriptions: Map<string, string>): string | undefined {
  const exact = descriptions.get(path)
  if (exact !== undefined) return exact
  for (const [described, text] of descriptions) {
    if (path.endsWith(`/${described}`) || described.endsWith(`/${path}`)) return text
  }
  return undefined
}
