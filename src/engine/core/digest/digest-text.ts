/**
 * Text helpers for digests: whole sentences only (a digest never ends a bullet mid-sentence),
 * markdown flattened to one line, and record ids shortened the way the reference digest cites them.
 */

/** How a digest cites a record: the first 8 characters of its uuid. */
export function shortId(uuid: string): string {
  return uuid.slice(0, 8)
}

/** The text's sentences: split after `.`, `!` or `?` followed by a space and a capital or a quote. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[^.\s][.!?])\s+(?=[A-Z`*"'([])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '')
}

/**
 * The leading whole sentences of `text` that fit in `maxChars`. A first sentence longer than that
 * is cut at its last clause break (`;`, `:`, `,`, ` - `) that fits, ending with `…`, so what is
 * shown still reads as a statement; text without any break is cut at a word.
 */
export function leadingSentences(text: string, maxChars: number): string {
  const flat = oneLine(text)
  if (flat.length <= maxChars) return flat
  let kept = ''
  for (const sentence of sentencesOf(flat)) {
    const next = kept === '' ? sentence : `${kept} ${sentence}`
    if (next.length > maxChars) break
    kept = next
  }
  if (kept !== '') return kept
  return cutAtBreak(flat, maxChars)
}

function cutAtBreak(text: string, maxChars: number): string {
  const head = text.slice(0, maxChars - 1)
  const clause = Math.max(
    head.lastIndexOf('; '),
    head.lastIndexOf(': '),
    head.lastIndexOf(', '),
    head.lastIndexOf(' - '),
    head.lastIndexOf(' — '),
  )
  const at = clause > maxChars / 3 ? clause : head.lastIndexOf(' ')
  const cut = (at > 0 ? head.slice(0, at) : head).replace(/[\s,;:—-]+$/, '')
  return `${balanceBackticks(cut)}…`
}

/** Closes an inline code span left open by a cut. */
function balanceBackticks(text: string): string {
  const ticks = text.match(/`/g)?.length ?? 0
  return ticks % 2 === 1 ? `${text}\`` : text
}

/** Whitespace runs (newlines included) collapsed to one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * Markdown as plain statements: code blocks dropped, headings, list markers, emphasis and table
 * pipes removed; one entry per remaining line.
 */
export function markdownLines(text: string): string[] {
  const lines: string[] = []
  let inFence = false
  for (const raw of text.split('\n')) {
    if (/^\s*(?:```|~~~)/.test(raw)) {
      inFence = !inFence
      continue
    }
    if (inFence) continue
    if (/^\s*\|?\s*:?-{3,}/.test(raw)) continue // a table's rule line
    const stripped = raw
      .replace(/^\s*(?:#+|[-*+]|\d+[.)])\s+/, '')
      .replace(/\*\*|__/g, '')
      .trim()
    // Only a table row's pipes are cell breaks; `a || b` in prose or code stays as written.
    const line = /^\|.*\|$/.test(stripped)
      ? stripped
          .replace(/^\|\s*|\s*\|$/g, '')
          .replace(/\s*\|\s*/g, ' · ')
          .trim()
      : stripped
    if (line !== '') lines.push(line)
  }
  return lines
}

/** `text` in backticks, with backticks inside replaced so the span stays one span. */
export function code(text: string): string {
  return `\`${text.replaceAll('`', "'")}\``
}

/** True when `text` ends a sentence (so a bullet can end there). */
export function endsSentence(text: string): boolean {
  return /[.!?)`"'…:]$/.test(text.trim())
}
