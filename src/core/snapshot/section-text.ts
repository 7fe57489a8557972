/** Small text helpers shared by the snapshot's section builders. */

/** A section: `## title`, a blank line, then the lines. Empty when there are no lines. */
export function block(title: string, lines: string[]): string {
  return lines.length === 0 ? '' : `## ${title}\n\n${lines.join('\n')}`
}

/** The line that says how much a summary left out and where to see it. */
export function moreLine(hidden: number, noun: string, where: string): string {
  return `- … ${hidden} more ${noun}: ${where}`
}

/** "1 task", "3 tasks". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/** `*`, `**` or `***` for salience 1 to 3. */
export function stars(salience: number): string {
  return '*'.repeat(Math.min(3, Math.max(1, salience)))
}

/**
 * Lines of an embedded file with every heading one level deeper (`##` → `###`), so a file's own
 * `## Active Memory` sits under the snapshot's `## Memory` instead of looking like a new section.
 * Fenced code is left alone.
 */
export function nestHeadings(lines: string[]): string[] {
  let inFence = false
  return lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    return !inFence && /^#{1,5}\s/.test(line) ? `#${line}` : line
  })
}
