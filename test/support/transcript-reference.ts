/**
 * The reference the transcript analyzer is checked against: JSON.parse every line and apply the
 * counting rules plainly, with no shortcuts. Only the rule helpers (tool lists, phrase pattern,
 * slug patterns) are shared with the engine; they have their own unit tests.
 */
import type { TranscriptAnalysis } from '../../src/engine/core/transcript/transcript-analysis.ts'
import {
  CHANGE_TOOLS,
  countDecisionMarkers,
  isHumanPromptText,
  isSleepDispatch,
  taskSlugsOf,
} from '../../src/engine/core/transcript/transcript-rules.ts'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const numberOr0 = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0

/** The counts of `text` (a whole JSONL transcript), computed the slow, obvious way. */
export function referenceAnalysis(text: string, since?: string): TranscriptAnalysis {
  const sinceMs = since === undefined ? null : Date.parse(since)
  const toolCounts: Record<string, number> = {}
  const toolIds = new Set<string>()
  const usageById = new Map<string, number[]>()
  const anonymousUsage: number[][] = []
  const slugs = new Set<string>()
  const result = {
    change_count: 0,
    tool_count: 0,
    user_turns: 0,
    assistant_chars: 0,
    decision_markers: 0,
    tool_results: 0,
    tool_errors: 0,
    sleep_dispatches: 0,
    lines: 0,
    unparsable_lines: 0,
  }
  let first: string | null = null
  let last: string | null = null
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    result.lines++
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      result.unparsable_lines++
      continue
    }
    if (!isObject(record) || (record.type !== 'assistant' && record.type !== 'user')) continue
    const stamp = record.timestamp
    if (sinceMs !== null && typeof stamp === 'string' && Date.parse(stamp) <= sinceMs) continue
    if (typeof stamp === 'string') {
      first ??= stamp
      last = stamp
    }
    const message = record.message
    if (!isObject(message)) continue
    const content = message.content
    if (record.type === 'assistant') {
      const usage = isObject(message.usage) ? message.usage : {}
      const numbers = [
        numberOr0(usage.input_tokens),
        numberOr0(usage.output_tokens),
        numberOr0(usage.cache_creation_input_tokens),
        numberOr0(usage.cache_read_input_tokens),
      ]
      if (typeof message.id !== 'string') anonymousUsage.push(numbers)
      else {
        const known = usageById.get(message.id) ?? [0, 0, 0, 0]
        usageById.set(
          message.id,
          known.map((value, index) => Math.max(value, numbers[index] ?? 0)),
        )
      }
      for (const block of Array.isArray(content) ? content : []) {
        if (!isObject(block)) continue
        if (block.type === 'text' && typeof block.text === 'string') {
          result.assistant_chars += block.text.length
          result.decision_markers += countDecisionMarkers(block.text)
        }
        if (block.type !== 'tool_use') continue
        if (typeof block.id === 'string') {
          if (toolIds.has(block.id)) continue
          toolIds.add(block.id)
        }
        const name = typeof block.name === 'string' ? block.name : '(unnamed)'
        if (isSleepDispatch(name, block.input)) {
          result.sleep_dispatches++
          continue
        }
        result.tool_count++
        toolCounts[name] = (toolCounts[name] ?? 0) + 1
        if (CHANGE_TOOLS.has(name)) result.change_count++
        for (const slug of taskSlugsOf(name, block.input)) slugs.add(slug)
      }
      continue
    }
    const blocks = Array.isArray(content) ? content.filter(isObject) : []
    const results = blocks.filter((block) => block.type === 'tool_result')
    result.tool_results += results.length
    result.tool_errors += results.filter((block) => block.is_error === true).length
    if (results.length > 0) continue
    if (record.isMeta === true || record.isCompactSummary === true || record.isSidechain === true)
      continue
    const prompt =
      typeof content === 'string'
        ? content
        : blocks
            .filter((block) => block.type === 'text' && typeof block.text === 'string')
            .map((block) => block.text as string)
            .join('\n')
    const hasImage = blocks.some((block) => block.type === 'image')
    const human = prompt.trim() === '' ? hasImage : isHumanPromptText(prompt)
    if (!human) continue
    result.user_turns++
    result.decision_markers += countDecisionMarkers(prompt)
  }
  const usages = [...usageById.values(), ...anonymousUsage]
  const sum = (index: number) => usages.reduce((total, usage) => total + (usage[index] ?? 0), 0)
  const [input, output, cacheCreation, cacheRead] = [sum(0), sum(1), sum(2), sum(3)]
  return {
    ...result,
    novel_tokens: input + output + cacheCreation,
    task_slugs: slugs.size,
    tool_counts: Object.fromEntries(
      Object.entries(toolCounts).sort(([a], [b]) => (a < b ? -1 : 1)),
    ),
    assistant_messages: usages.length,
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    task_slug_list: [...slugs],
    bytes: Buffer.byteLength(text),
    subagent_files: 0,
    sleep_subagent_files: 0,
    first_timestamp: first,
    last_timestamp: last,
  }
}
