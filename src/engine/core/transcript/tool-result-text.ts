import { isRecord } from './transcript-rules.ts'

/** A tool result's text: a string, or the text blocks of an array. */
export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .filter(isRecord)
    .map((block) =>
      block.type === 'text' && typeof block.text === 'string'
        ? block.text
        : `[${String(block.type)}]`,
    )
    .join('\n')
}
