/**
 * Text helpers of the session-lesson reader: summary bullets, the first sentence that says
 * something, a decision's reason, and commands shown without their output plumbing.
 */
import { isRecord } from '../transcript/transcript-rules.ts'

/** The text blocks of a message content array, joined. */
export function textBlocks(content: unknown): string {
  if (!Array.isArray(content)) return ''
  return content
    .filter((block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => String((block as { text: string }).text))
    .join('\n')
}

/** The `- ` bullets of the numbered part of a summary whose heading starts with `heading`. */
export function bulletsUnder(text: string, heading: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((line) =>
    line.replace(/^\s*(?:\d+\.\s*)?[#*\s]*/, '').startsWith(heading),
  )
  if (start === -1) return []
  const bullets: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^\s*\d+\.\s+\S/.test(line) || /^#/.test(line)) break
    const bullet = /^\s{0,6}[-*]\s+(.*)$/.exec(line)
    if (bullet?.[1] && /^\s{0,3}[-*]/.test(line)) bullets.push(bullet[1].trim())
  }
  return bullets
}

/** The first sentence of `text` that matches `pattern`, or ''. */
export function firstSentence(text: string, pattern: RegExp): string {
  const sentences = text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)]|#+)\s+/, '').trim())
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=[A-Z`*"'(])/))
    .map((sentence) => sentence.trim())
  return (
    sentences.find(
      (sentence) =>
        sentence.length >= 15 &&
        pattern.test(sentence) &&
        !/^(?:let me|now let me|i'll|let's)\b/i.test(sentence),
    ) ?? ''
  )
}

/** "Chose X because Y" → ["Chose X", "Y"]; the whole sentence twice when there is no reason word. */
export function splitReason(sentence: string): [string, string] {
  const match = /^(.*?)\s*[,;:]?\s*\b(because|so that|to avoid|since)\b\s*(.*)$/i.exec(sentence)
  if (!match?.[1] || !match[3]) return [sentence, sentence]
  return [match[1], `${match[2]} ${match[3]}`]
}

/** True when two commands work on the same thing (a shared word that is not a shell connective). */
export function sharesTarget(failed: string, retried: string): boolean {
  const words = (command: string) =>
    new Set(
      firstLine(command)
        .split(/[\s;&|()'"=]+/)
        .filter((word) => word.length >= 3 && !TRIVIAL.has(word)),
    )
  const left = words(failed)
  return [...words(retried)].some((word) => left.has(word))
}

const TRIVIAL = new Set([
  'cd',
  'sudo',
  'env',
  'echo',
  'true',
  '2>&1',
  'tail',
  'head',
  'grep',
  '-n',
  '-la',
  'cat',
])

/** The command's first line without the plumbing that only shapes output (`2>&1`, `| tail -5`). */
export function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '')
    .replace(/\s+2>&1/g, '')
    .replace(/\s*\|\s*(?:tail|head)(?:\s+-n?\s*\d+|\s+-\d+)?\s*$/, '')
    .trim()
}

/** The first `count` words of the command's first line. */
export function firstWords(text: string, count: number): string {
  return firstLine(text).split(/\s+/).slice(0, count).join(' ')
}
