/**
 * Who wrote a transcript record: the one place that tells the person's words from everything
 * else. Only a `user` record holding text the person typed is theirs. Tool results ride in `user`
 * records too, and tool output is attacker text (a failing command can print "the user said: …"),
 * so it is never read as the person, whatever it says. The one exception is a call the person
 * declined at the permission prompt: Claude Code stamps that record itself (`toolDenialKind:
 * "user-rejected"`, or `toolUseResult: "User rejected tool use"` before that field existed) and
 * writes its own fixed text, followed by what the person typed. Shapes checked against the
 * transcripts in the shared datasets and the Claude Code CLI 2.1 (docs/design/principles.md,
 * "Transcripts").
 */
import { isHumanPromptText, isRecord } from './transcript-rules.ts'

/** Claude Code's text for a call the person declined, with or without words of theirs. */
const REJECTION_START = "The user doesn't want to proceed with this tool use."
/** What Claude Code writes before the person's words when they typed some with the refusal. */
const REJECTION_WORDS = [
  `${REJECTION_START} The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:`,
  'Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). The user said:',
]
/** `toolUseResult` of a declined call before `toolDenialKind` existed. */
const REJECTED_STAMP = 'User rejected tool use'

/** True for a `user` record that carries a tool's result rather than anything the person typed. */
export function carriesToolOutput(record: Record<string, unknown>): boolean {
  if (record.toolUseResult !== undefined || record.sourceToolAssistantUUID !== undefined)
    return true
  const message = isRecord(record.message) ? record.message : null
  const content = message?.content
  return (
    Array.isArray(content) &&
    content.some((block) => isRecord(block) && block.type === 'tool_result')
  )
}

/**
 * The text a person typed in `record`, with whether they attached an image; null for any record
 * that is not theirs: assistant records, tool results, Claude Code's own notes (meta records,
 * compaction summaries, command echoes, interruption notes) and prompts a newer Claude Code marks
 * as coming from somewhere other than a person (`origin.kind`).
 */
export function typedByPerson(
  record: Record<string, unknown>,
): { text: string; hasImage: boolean } | null {
  if (record.type !== 'user' || record.isMeta === true || record.isCompactSummary === true)
    return null
  if (isRecord(record.origin) && record.origin.kind !== undefined && record.origin.kind !== 'human')
    return null
  if (carriesToolOutput(record)) return null
  const content = isRecord(record.message) ? record.message.content : undefined
  if (typeof content === 'string')
    return isHumanPromptText(content) ? { text: content, hasImage: false } : null
  if (!Array.isArray(content)) return null
  const blocks = content.filter(isRecord)
  const text = blocks
    .flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    )
    .join('\n')
  const hasImage = blocks.some((block) => block.type === 'image')
  if (text.trim() === '') return hasImage ? { text, hasImage } : null
  return isHumanPromptText(text) ? { text, hasImage } : null
}

/**
 * The person's refusal of the call whose result is `output` in `record`: `said` holds what they
 * typed with it ('' when nothing). Null unless Claude Code stamped the record as a refusal and the
 * result starts with its own text: a tool that prints the same words is still a tool. For an MCP
 * tool only `toolDenialKind` counts, since the server writes its own result text.
 */
export function personRefusal(
  record: Record<string, unknown>,
  toolName: string,
  isError: boolean,
  output: string,
): { said: string } | null {
  if (!isError) return null
  const text = output.trimStart()
  const stamped =
    record.toolDenialKind === 'user-rejected' ||
    (!toolName.startsWith('mcp__') &&
      record.toolDenialKind === undefined &&
      (record.toolUseResult === REJECTED_STAMP || record.toolUseResult === `Error: ${output}`))
  if (!stamped) return null
  const words = REJECTION_WORDS.find((start) => text.startsWith(start))
  if (words !== undefined) return { said: text.slice(words.length).trim() }
  return text.startsWith(REJECTION_START) ? { said: '' } : null
}
