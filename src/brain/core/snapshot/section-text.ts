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

/**
 * The lines of `items`, rendered in order until their text passes `limit` characters. A form
 * longer than the whole budget can never be shown, so the rest is not rendered: the full Sleep
 * State of 1,000 sessions would be ~300 KB of text built only to be demoted.
 */
export function linesWithin<T>(
  items: readonly T[],
  render: (item: T, index: number) => string | string[],
  limit: number,
): string[] {
  const lines: string[] = []
  let chars = -1
  for (let index = 0; index < items.length && chars <= limit; index += 1) {
    const rendered = render(items[index] as T, index)
    for (const line of typeof rendered === 'string' ? [rendered] : rendered) {
      lines.push(line)
      chars += line.length + 1
    }
  }
  return lines
}
