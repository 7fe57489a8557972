/**
 * Claude Code's compaction summaries (`isCompactSummary` records, and the answer of an
 * `agent-acompact-*` run) are the model's own account of the conversation so far, written in
 * numbered sections: "1. Primary Request and Intent:", "Files and Code Sections", "Errors and
 * fixes", "Problem Solving", "Pending Tasks", ... This reads those sections as plain bullets, so a
 * digest can take what is still true at the end of the session and leave the rest (pending tasks
 * and "current work" are superseded by what happened after the compaction).
 */
import { markdownLines, oneLine } from './digest-text.ts'

/** A top-level bullet of a section and the lines nested under it (code blocks left out). */
export interface SectionBullet {
  text: string
  children: string[]
}

/** The summary's sections by lower-case title (`errors and fixes`), each body as written. */
export function compactionSections(summary: string): Map<string, string> {
  const start = summary.search(/^\s*(?:<summary>|Summary:)\s*$/m)
  const text = start === -1 ? summary : summary.slice(start)
  const sections = new Map<string, string>()
  const heading = /^[ \t]*\d+\.[ \t]+\**([^\n:*]+?)\**:[ \t]*(.*)$/gm
  const found = [...text.matchAll(heading)]
  for (const [index, match] of found.entries()) {
    const title = (match[1] as string).trim().toLowerCase()
    const bodyStart = (match.index as number) + match[0].length - (match[2] ?? '').length
    const bodyEnd = found[index + 1]?.index ?? text.length
    const body = text.slice(bodyStart, bodyEnd).replace(/<\/?summary>/g, '')
    // Leading blank lines go, the first line's indent stays: bullets are nested by indent.
    if (!sections.has(title)) sections.set(title, body.replace(/^\s*\n/, '').trimEnd())
  }
  return sections
}

/** The section whose title contains `word` (titles vary a little between versions), or ''. */
export function sectionNamed(sections: Map<string, string>, ...words: string[]): string {
  for (const [title, body] of sections) if (words.some((word) => title.includes(word))) return body
  return ''
}

/** The bullets of a section body: top-level `-`/`*`/numbered items with their nested lines. */
export function sectionBullets(body: string): SectionBullet[] {
  const bullets: SectionBullet[] = []
  let topIndent = -1
  let inFence = false
  for (const raw of body.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(raw)) {
      inFence = !inFence
      continue
    }
    if (inFence || raw.trim() === '') continue
    const marker = /^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$/.exec(raw)
    if (marker === null) {
      // Prose between bullets, or a bullet's continuation: attach it to the open bullet.
      const last = bullets.at(-1)
      const line = markdownLines(raw)[0]
      if (last !== undefined && line !== undefined) last.children.push(line)
      continue
    }
    const indent = (marker[1] as string).length
    const text = markdownLines(marker[2] as string)[0] ?? ''
    if (topIndent === -1 || indent <= topIndent) {
      topIndent = indent
      bullets.push({ text, children: [] })
    } else bullets.at(-1)?.children.push(text)
  }
  return bullets.filter((bullet) => bullet.text !== '')
}

/** True when a user record's text is a compaction summary (it opens with Claude Code's fixed words). */
export function isCompactionText(text: string): boolean {
  return /^\s*This session is being continued from a previous conversation/.test(text)
}

/** A description part that only says how the summary's writer saw the file, not what changed. */
const FILE_STATUS =
  /^\(?(?:new|modified|rewritten|created|updated|read|unchanged|deleted)\b[^)]*\)?[.;]?$|\bnot (?:yet )?(?:modified|changed|touched)\b|^read\b|\bcurrently has\b|^(?:core|main) (?:\w+ )?(?:file|resource|module|implementation)\b[^.;]*[.;]?$|^(?:modified|changed|touched) (?:across|in|during)\b/i

/** `path` → what the compaction summaries say changed in it (the latest summary wins). */
export function summaryFileDescriptions(sections: Array<Map<string, string>>): Map<string, string> {
  const descriptions = new Map<string, string>()
  for (const found of sections) {
    for (const bullet of sectionBullets(sectionNamed(found, 'files'))) {
      const path =
        /`([^`\s]+\.[\w]+)`/.exec(bullet.text)?.[1] ?? /^([\w./-]+\.\w+)/.exec(bullet.text)?.[1]
      if (path === undefined) continue
      const own = bullet.text
        .replace(/^.*?`[^`]+`\**\s*/, '')
        .replace(/^[\s—–:-]+/, '')
        .replace(/^\((?:new|modified|rewritten|created|updated)\b[^)]*\)[\s.;:—-]*/i, '')
        .trim()
      const parts = [...own.split(/(?<=\.)\s+/), ...bullet.children]
        .map((part) => oneLine(part).replace(/[:;]$/, ''))
        .filter((part) => part !== '' && !FILE_STATUS.test(part))
      // A summary that says the file was not changed yet is stale once the session changed it.
      if (FILE_STATUS.test(own) && /not (?:yet )?modified/i.test(own)) continue
      const text = parts.slice(0, 3).join('; ')
      if (text !== '') descriptions.set(path, text)
    }
  }
  return descriptions
}
