/**
 * Transcript distillation (seed 000/001, research 1.7, docs/design/origins.md): a structural filter
 * that turns a Claude Code transcript into short markdown for the consolidation agent. No model
 * involved. Kept: what the person asked, what the agent decided (not its narration), what it
 * changed (shell commands only when they change files or state), what failed (named by its real
 * error line), and bookmarks. Dropped: look-around tools (Read, Grep, ...), tool output, metadata.
 *
 * Fixes the seed's flaw: tool results arrive as `type:"user"` records, and the seed dumped their
 * output into "User Messages" while its error branch never matched. Here tool results are never
 * user messages, and each `is_error` result is listed under Errors with the tool and its input.
 */

import { redactSecrets } from '../redact-secrets.ts'
import { changesFilesOrState } from './bash-command-effects.ts'
import { decisionSentences } from './decision-sentences.ts'
import { errorLineOf } from './error-line.ts'
import { fencedBlock } from './fenced-block.ts'
import { typedByPerson } from './provenance.ts'
import { type CountWindow, inWindow } from './structural-record.ts'
import { toolResultText } from './tool-result-text.ts'
import { countWindowFor } from './transcript-analyzer.ts'
import { CHANGE_TOOLS, isRecord, NOISE_TOOLS, SUBAGENT_TOOLS } from './transcript-rules.ts'

/** What to distill and how much of it to keep. */
export interface DistillOptions {
  /** Shown in the heading. */
  sessionId: string
  /** ISO time: records at or before it are left out (already consolidated). */
  since?: string
  /** Keep long prompts, texts, file contents and edits whole instead of shortening them. */
  full?: boolean
}

/** A distillation in progress: feed it lines in file order, then ask for the markdown. */
export interface TranscriptDistiller {
  addLine(line: string): void
  toMarkdown(): string
}

/** Bash commands that record a bookmark, ours or seed 000's CLI. */
const BOOKMARK_BASH = /\b(?:somnus bookmark add|agentcontext bookmark)\b/

/** How much of each kind of text the default (not --full) output keeps. */
const LIMITS = {
  userMessage: 500,
  decision: 300,
  command: 200,
  errorText: 500,
  errorLine: 300,
  errorInput: 200,
  blockLines: 40,
  editLines: 20,
  blockChars: 4000,
}

/** Starts a distillation; throws USAGE when `since` is not a date. */
export function createDistiller(options: DistillOptions): TranscriptDistiller {
  return new Distiller(options, countWindowFor(options.since))
}

/** Distills a whole transcript held in memory. */
export function distillTranscriptText(text: string, options: DistillOptions): string {
  const distiller = createDistiller(options)
  for (const line of text.split('\n')) distiller.addLine(line)
  return distiller.toMarkdown()
}

type Json = Record<string, unknown>

class Distiller implements TranscriptDistiller {
  private readonly userMessages: string[] = []
  private readonly decisions: string[] = []
  private readonly changes: string[] = []
  private readonly errors: string[] = []
  private readonly bookmarks: string[] = []
  /**
   * tool_use id → the tool and the input that names the call, until its result comes; described
   * (redacted, clipped) only when that result is an error: most calls never fail, and a Bash
   * command is redacted once more for the changes list anyway.
   */
  private readonly calls = new Map<string, PendingCall>()
  private unparsable = 0
  private readonly options: DistillOptions
  private readonly window: CountWindow
  private readonly full: boolean

  constructor(options: DistillOptions, window: CountWindow) {
    this.options = options
    this.window = window
    this.full = options.full === true
  }

  addLine(line: string): void {
    if (line.trim() === '') return
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      this.unparsable++
      return
    }
    if (!isRecord(record) || !isRecord(record.message)) return
    const counted = inWindow(this.window, record.timestamp)
    if (record.type === 'assistant') this.addAssistant(record.message, counted)
    else if (record.type === 'user' && counted) this.addUser(record, record.message)
  }

  private addAssistant(message: Json, counted: boolean): void {
    if (!Array.isArray(message.content)) return
    for (const block of message.content) {
      if (!isRecord(block)) continue
      if (block.type === 'tool_use') {
        const name = typeof block.name === 'string' ? block.name : '(unnamed)'
        const input = isRecord(block.input) ? block.input : {}
        if (typeof block.id === 'string')
          this.calls.set(block.id, { name, detail: callDetail(input) })
        if (counted) this.addToolUse(name, input)
        continue
      }
      if (!counted) continue
      if (block.type === 'text' && typeof block.text === 'string') {
        const chosen = decisionSentences(block.text).join(' ')
        if (chosen !== '') this.decisions.push(this.clip(chosen, LIMITS.decision))
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        const chosen = decisionSentences(block.thinking).join(' ')
        if (chosen !== '') this.decisions.push(`[thinking] ${this.clip(chosen, LIMITS.decision)}`)
      }
    }
  }

  private addToolUse(name: string, input: Json): void {
    if (NOISE_TOOLS.has(name)) return
    if (name === 'Bash') {
      const command = stringOf(input.command)
      if (BOOKMARK_BASH.test(command))
        this.bookmarks.push(this.inlineOrBlock(command, LIMITS.command))
      else if (changesFilesOrState(command))
        this.changes.push(`BASH ${this.inlineOrBlock(command, LIMITS.command)}`)
    } else if (CHANGE_TOOLS.has(name)) {
      this.changes.push(this.describeChange(name, input))
    } else if (SUBAGENT_TOOLS.has(name)) {
      const prompt = stringOf(input.prompt).trim()
      if (prompt.length <= 20) return
      const agent = stringOf(input.subagent_type) || 'general-purpose'
      const description = stringOf(input.description)
      const label = description ? `${agent}: ${description}` : agent
      this.decisions.push(`[subagent-task] ${label} -- ${this.clip(prompt, LIMITS.decision)}`)
    }
  }

  private describeChange(name: string, input: Json): string {
    const path = stringOf(input.file_path)
    if (name === 'Write') {
      const content = stringOf(input.content)
      return `WRITE ${path} (${lineCount(content)} lines)\n${this.block(content, LIMITS.blockLines)}`
    }
    if (name === 'Edit') {
      const all = input.replace_all === true ? ' (all occurrences)' : ''
      return `EDIT ${path}${all}\n${this.edit(input)}`
    }
    if (name === 'MultiEdit') {
      const edits = Array.isArray(input.edits) ? input.edits.filter(isRecord) : []
      const shown = this.full ? edits : edits.slice(0, 5)
      const more = edits.length - shown.length
      const parts = shown.map((edit) => this.edit(edit))
      if (more > 0) parts.push(`  ... [${more} more edits; --full shows all]`)
      return `MULTIEDIT ${path} (${edits.length} edits)\n${parts.join('\n')}`
    }
    const notebook = stringOf(input.notebook_path)
    const cell = stringOf(input.cell_id)
    const mode = stringOf(input.edit_mode) || 'replace'
    const where = cell ? `cell ${cell}, ${mode}` : mode
    return `NOTEBOOK_EDIT ${notebook} (${where})\n${this.block(stringOf(input.new_source), LIMITS.blockLines)}`
  }

  private edit(input: Json): string {
    const before = this.block(stringOf(input.old_string), LIMITS.editLines)
    const after = this.block(stringOf(input.new_string), LIMITS.editLines)
    return `  old:\n${before}\n  new:\n${after}`
  }

  private addUser(record: Json, message: Json): void {
    const content = message.content
    const blocks = Array.isArray(content) ? content.filter(isRecord) : []
    const results = blocks.filter((block) => block.type === 'tool_result')
    for (const result of results) {
      const id = stringOf(result.tool_use_id)
      const called = this.calls.get(id)
      // Answered: let go. A failed call is kept, described once and without its raw input: a
      // record written twice brings its error again, and describing it at each repeat would
      // redact its input again each time.
      if (result.is_error !== true) {
        this.calls.delete(id)
        continue
      }
      let call = 'an earlier tool call'
      if (called !== undefined) {
        called.described ??= this.describeCall(called.name, called.detail)
        called.detail = ''
        call = called.described
      }
      const output = toolResultText(result.content)
      this.errors.push(
        `${call} failed:${this.errorLine(output)}\n${this.block(output, LIMITS.blockLines, LIMITS.errorText)}`,
      )
    }
    if (record.isSidechain === true) return
    // Only what the person typed; tool output in a user record is never theirs (provenance.ts).
    const typed = typedByPerson(record)
    if (typed === null) return
    const { text } = typed
    const images = blocks.filter((block) => block.type === 'image').length
    const imageNote = images > 0 ? `[${images} image${images > 1 ? 's' : ''}]` : ''
    const quoted = text.trim() === '' ? '' : `"${this.clip(text.trim(), LIMITS.userMessage)}"`
    this.userMessages.push([quoted, imageNote].filter(Boolean).join(' '))
  }

  /** ` <line>` naming the error, or '' when the output's first line already is that line. */
  private errorLine(output: string): string {
    const line = errorLineOf(output)
    const first = output.trim().split('\n')[0]?.replace(/\s+/g, ' ').trim()
    if (line === '' || line === first) return ''
    return ` \`${this.clip(line, LIMITS.errorLine).replaceAll('`', "'")}\``
  }

  /** How an error names the call that failed: the tool and its `callDetail`. */
  private describeCall(name: string, detail: string): string {
    // Redacted before its lines are joined (a token wrapped over two lines is known by the break)
    // and again after, by clip (joined lines can make a `NAME= value` no one line held).
    const shown = this.clip(redactSecrets(detail).replace(/\s+/g, ' ').trim(), LIMITS.errorInput)
    return shown === '' || shown === '{}'
      ? `**${name}**`
      : `**${name}** \`${shown.replaceAll('`', "'")}\``
  }

  toMarkdown(): string {
    const since = this.options.since === undefined ? '' : ` (since ${this.options.since})`
    const parts = [`## Session ${this.options.sessionId} -- Distilled Transcript${since}`, '']
    const sections: Array<[string, string[]]> = [
      ['User Messages', this.userMessages],
      ['Agent Decisions & Reasoning', this.decisions],
      ['Code Changes', this.changes],
      ['Errors & Issues', this.errors],
      ['Bookmarks', this.bookmarks],
    ]
    for (const [title, items] of sections) {
      if (items.length === 0) continue
      parts.push(`### ${title}`, ...items.map(listItem), '')
    }
    if (parts.length === 2) parts.push('Nothing to distill in this part of the transcript.', '')
    if (this.unparsable > 0) parts.push(`(${this.unparsable} unreadable lines skipped)`, '')
    return parts.join('\n')
  }

  /** `text` with secrets redacted, cut to `max` characters with a marker, unless --full. */
  private clip(raw: string, max: number): string {
    // Every text the distillation prints passes here or through `block`; redact before cutting so
    // a cut never leaves half a secret that no rule recognises.
    const text = redactSecrets(raw)
    if (this.full || text.length <= max) return text
    return `${text.slice(0, max)}... [${text.length - max} more chars; --full shows all]`
  }

  /** A one-line command inline, a multi-line one as a code block. */
  private inlineOrBlock(command: string, max: number): string {
    const trimmed = command.trim()
    if (!trimmed.includes('\n')) return `\`${this.clip(trimmed, max).replaceAll('`', "'")}\``
    return `\n${this.block(trimmed, LIMITS.blockLines, max * 5)}`
  }

  /** A fenced, indented code block of `raw` (secrets redacted), shortened unless --full. */
  private block(raw: string, maxLines: number, maxChars = LIMITS.blockChars): string {
    const text = redactSecrets(raw)
    let lines = text.split('\n')
    let note = ''
    if (!this.full && lines.length > maxLines) {
      note = `... [${lines.length - maxLines} more lines; --full shows all]`
      lines = lines.slice(0, maxLines)
    }
    let body = lines.join('\n')
    if (!this.full && body.length > maxChars) {
      body = body.slice(0, maxChars)
      note = `... [${text.length - maxChars} more chars; --full shows all]`
    }
    return fencedBlock(body, note)
  }
}

/** A tool call by id: its tool and `callDetail`, then its description once its result failed. */
interface PendingCall {
  name: string
  detail: string
  described?: string
}

/** The input that matters most in naming a tool call: its command, path, pattern, URL or query. */
function callDetail(input: Json): string {
  const key = ['command', 'file_path', 'notebook_path', 'pattern', 'url', 'query'].find(
    (field) => typeof input[field] === 'string',
  )
  if (key !== undefined) return input[key] as string
  try {
    return JSON.stringify(input)
  } catch {
    // Nested deeper than the stack (JSON.parse reads any depth): the call is named by its tool.
    return ''
  }
}

/** A markdown list item; continuation lines are indented to stay inside the item. */
function listItem(text: string): string {
  const [first, ...rest] = text.split('\n')
  return [
    `- ${first}`,
    ...rest.map((line) => (line.startsWith('  ') || line === '' ? line : `  ${line}`)),
  ].join('\n')
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function lineCount(text: string): number {
  if (text === '') return 0
  const newlines = text.split('\n').length - 1
  return text.endsWith('\n') ? newlines : newlines + 1
}
