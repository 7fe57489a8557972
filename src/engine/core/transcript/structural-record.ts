/**
 * Counting from a parsed record: the plain, obviously-right reading of the rules. The analyzer
 * uses it for any line its byte-level walk does not vouch for, and it is the definition the fast
 * path must match.
 */
import type { AnalysisAccumulator } from './analysis-accumulator.ts'
import type { MessageUsage } from './message-usage.ts'
import { isHumanPromptText, isRecord, isSleepDispatch, taskSlugsOf } from './transcript-rules.ts'

/** Where counting starts: records stamped at or before `sinceMs` are left out (null: count all). */
export interface CountWindow {
  sinceMs: number | null
}

/** True when a record stamped `timestamp` falls inside the window (unstamped records always do). */
export function inWindow(window: CountWindow, timestamp: unknown): boolean {
  if (window.sinceMs === null || typeof timestamp !== 'string') return true
  return !(Date.parse(timestamp) <= window.sinceMs)
}

/** Feeds one parsed JSONL record into `accumulator`. Records other than user/assistant count nothing. */
export function countParsedRecord(
  record: unknown,
  window: CountWindow,
  accumulator: AnalysisAccumulator,
): void {
  if (!isRecord(record)) return
  if (record.type !== 'assistant' && record.type !== 'user') return
  if (!inWindow(window, record.timestamp)) return
  if (typeof record.timestamp === 'string') accumulator.noteTimestamp(record.timestamp)
  const message = isRecord(record.message) ? record.message : null
  if (record.type === 'assistant') countAssistant(message, accumulator)
  else countUser(record, message, accumulator)
}

function countAssistant(
  message: Record<string, unknown> | null,
  accumulator: AnalysisAccumulator,
): void {
  if (message === null) return
  accumulator.addAssistantMessage(
    typeof message.id === 'string' ? message.id : null,
    usageOf(message.usage),
  )
  if (!Array.isArray(message.content)) return
  for (const block of message.content) {
    if (!isRecord(block)) continue
    if (block.type === 'text' && typeof block.text === 'string')
      accumulator.addAssistantText(block.text)
    if (block.type !== 'tool_use') continue
    const name = typeof block.name === 'string' ? block.name : UNNAMED_TOOL
    const id = typeof block.id === 'string' ? block.id : null
    if (isSleepDispatch(name, block.input)) accumulator.addSleepDispatch(id)
    else if (accumulator.addToolUse(id, name)) {
      accumulator.addTaskSlugs(taskSlugsOf(name, block.input))
    }
  }
}

/** The name counted for a tool_use block without a string `name`. */
export const UNNAMED_TOOL = '(unnamed)'

function countUser(
  record: Record<string, unknown>,
  message: Record<string, unknown> | null,
  accumulator: AnalysisAccumulator,
): void {
  if (message === null) return
  const content = message.content
  let toolResults = 0
  let text = typeof content === 'string' ? content : ''
  let hasImage = false
  if (Array.isArray(content)) {
    const texts: string[] = []
    for (const block of content) {
      if (!isRecord(block)) continue
      if (block.type === 'tool_result') {
        toolResults++
        accumulator.addToolResult(block.is_error === true)
      } else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
      else if (block.type === 'image') hasImage = true
    }
    text = texts.join('\n')
  }
  if (toolResults > 0) return
  if (record.isMeta === true || record.isCompactSummary === true || record.isSidechain === true)
    return
  if (isHumanPrompt(text, hasImage)) accumulator.addHumanPrompt(text)
}

/** A user record that carries no tool result is a human prompt when its text is, or it holds an image. */
export function isHumanPrompt(text: string, hasImage: boolean): boolean {
  if (text.trim() === '') return hasImage
  return isHumanPromptText(text)
}

function usageOf(usage: unknown): MessageUsage {
  if (!isRecord(usage)) return { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 }
  return {
    input: numberOr0(usage.input_tokens),
    output: numberOr0(usage.output_tokens),
    cacheCreation: numberOr0(usage.cache_creation_input_tokens),
    cacheRead: numberOr0(usage.cache_read_input_tokens),
  }
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0
}
