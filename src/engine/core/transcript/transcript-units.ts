/**
 * A transcript as consolidation material: the person's prompts and the agent's closing words of
 * each turn, each a unit whose id is the record's `uuid`, so everything derived from it can cite
 * where it came from. Text the agent wrote before a tool call is narration ("Let me check the
 * tests") and is dropped; the text that ends a turn is the agent's own summary of it. Tool calls,
 * tool output and Claude Code's own records are left out (the distiller's rules).
 */
import type { Unit } from '../model-results.ts'
import { redactSecrets } from '../redact-secrets.ts'
import { typedByPerson } from './provenance.ts'
import { type CountWindow, inWindow } from './structural-record.ts'
import { isRecord } from './transcript-rules.ts'

/**
 * Assistant text shorter than this is acknowledgement, not content (seed 000: "> 20 chars",
 * docs/design/origins.md).
 */
const MIN_ASSISTANT_CHARS = 20

/** Collects units from transcript lines fed in file order; call `finish()` after the last line. */
export class TranscriptUnitCollector {
  readonly units: Unit[] = []
  /** Assistant text of the current turn, kept only if no tool call follows it. */
  private pending: Unit[] = []
  private readonly window: CountWindow

  constructor(window: CountWindow) {
    this.window = window
  }

  /** Reads one JSONL line; lines that are not JSON or carry nothing to keep are skipped. */
  addLine(line: string): void {
    if (line.trim() === '') return
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      return
    }
    if (!isRecord(record) || typeof record.uuid !== 'string') return
    if (record.type !== 'user' && record.type !== 'assistant') return
    if (record.isSidechain === true || !inWindow(this.window, record.timestamp)) return
    if (record.type === 'assistant' && callsATool(record)) this.pending = []
    const found = this.textOf(record)
    if (found === null) return
    // Units go to memory files and to model providers: neither may see a secret.
    const text = redactSecrets(found)
    const unit: Unit = {
      id: record.uuid,
      text,
      speaker: record.type,
      ...(typeof record.timestamp === 'string' ? { timestamp: record.timestamp } : {}),
    }
    if (record.type === 'assistant') {
      this.pending.push(unit)
      return
    }
    this.finish()
    this.units.push(unit)
  }

  /** Keeps the text that ended the last turn (call at the end of the transcript). */
  finish(): void {
    this.units.push(...this.pending)
    this.pending = []
  }

  private textOf(record: Record<string, unknown>): string | null {
    const message = isRecord(record.message) ? record.message : null
    const content = message?.content
    if (record.type === 'assistant') {
      if (!Array.isArray(content)) return null
      const text = content
        .filter(
          (block) => isRecord(block) && block.type === 'text' && typeof block.text === 'string',
        )
        .map((block) => String((block as { text: string }).text))
        .join('\n')
        .trim()
      return text.length > MIN_ASSISTANT_CHARS ? text : null
    }
    // Tool results arrive as user records; they neither end a turn nor hold the person's words.
    const typed = typedByPerson(record)
    return typed === null || typed.text.trim() === '' ? null : typed.text.trim()
  }
}

function callsATool(record: Record<string, unknown>): boolean {
  const content = isRecord(record.message) ? record.message.content : null
  return (
    Array.isArray(content) && content.some((block) => isRecord(block) && block.type === 'tool_use')
  )
}
