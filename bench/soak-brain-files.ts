/** What an outside observer can check in a brain's files: leftovers, duplicates, their text. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Files under `folder`, as paths relative to it. */
export function listFiles(folder: string): string[] {
  const found: string[] = []
  const walk = (current: string) => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = readdirSync(current, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) walk(path)
      else found.push(relative(folder, path))
    }
  }
  walk(folder)
  return found
}

/**
 * Temp files of an interrupted atomic write: ours (`<file>.<pid>.<n>.<rand>`) and
 * write-file-atomic's (`<file>.<digits>`).
 */
export function isTempFile(path: string): boolean {
  return /\.\d+\.\d+\.[a-z0-9]+$/.test(path) || /\.(json|md|sql)\.\d+$/.test(path)
}

/** A file some reader set aside as corrupt. */
export function isCorruptFile(path: string): boolean {
  return path.includes('.corrupt-')
}

/** Reads a JSON file; `undefined` when missing, `null` when it does not parse. */
export function readJson(path: string): unknown {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The list lines ("- ...") that a core markdown file holds more than once (template lines aside). */
export function duplicatedLines(root: string, templateLines: ReadonlySet<string>): string[] {
  const duplicated: string[] = []
  for (const name of listFiles(join(root, 'core'))) {
    if (!name.endsWith('.md')) continue
    const seen = new Set<string>()
    for (const line of readFileSync(join(root, 'core', name), 'utf8').split('\n')) {
      const trimmed = line.trim()
      if (!/^[-*] \S/.test(trimmed) || templateLines.has(trimmed)) continue
      if (seen.has(trimmed)) duplicated.push(`${name}: ${trimmed.slice(0, 120)}`)
      seen.add(trimmed)
    }
  }
  return duplicated
}

/** Every list line of a fresh brain's core files, which may repeat by design. */
export function templateLinesOf(root: string): Set<string> {
  const lines = new Set<string>()
  for (const name of listFiles(join(root, 'core'))) {
    if (!name.endsWith('.md')) continue
    for (const line of readFileSync(join(root, 'core', name), 'utf8').split('\n'))
      lines.add(line.trim())
  }
  return lines
}

/** The brain's own text (core, knowledge, task files), where consolidated facts land. */
export function brainText(root: string): string {
  const parts: string[] = []
  for (const name of listFiles(root)) {
    if (name.startsWith('state/.') || isCorruptFile(name) || isTempFile(name)) continue
    if (!/\.(md|json)$/.test(name)) continue
    parts.push(readFileSync(join(root, name), 'utf8'))
  }
  return parts.join('\n')
}
