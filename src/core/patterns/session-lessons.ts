/**
 * The lessons of one Claude Code session, read from its transcript (the primary source, seed 002
 * item 4): failed commands paired with the cause the agent found and the command that then worked;
 * the "Errors and fixes" and "Problem Solving" lists of Claude Code's own compaction summaries;
 * decisions stated with their reasons; and the user's corrections and preferences. Each lesson is
 * a complete Observation / Details / Context, citing the session and the records it came from.
 */
import { guessDomain } from '../extractive/patterns.ts'
import { clip } from '../markdown-text.ts'
import { redactSecrets } from '../redact-secrets.ts'
import { decisionSentences } from '../transcript/decision-sentences.ts'
import { errorLineOf } from '../transcript/error-line.ts'
import { toolResultText } from '../transcript/tool-result-text.ts'
import { isHumanPromptText, isRecord } from '../transcript/transcript-rules.ts'
import type { PatternCandidate } from './encode-plan.ts'
import {
  bulletsUnder,
  firstLine,
  firstSentence,
  firstWords,
  sharesTarget,
  splitReason,
  textBlocks,
} from './lesson-text.ts'
import { domainSlug, type PatternCategory } from './pattern-entry.ts'

/** One thing that happened, in transcript order. */
type Event =
  | { kind: 'text'; text: string; uuid: string }
  | { kind: 'prompt'; text: string; uuid: string }
  | { kind: 'call'; id: string; tool: string; command: string; uuid: string }
  | { kind: 'result'; id: string; error: boolean; text: string; uuid: string }

/** Failed tool output that is about the agent's use of a tool, not about the project. */
const MECHANICAL =
  /has not been read yet|String to replace not found|File has been (?:modified|unexpectedly modified)|user doesn't want to proceed|user rejected|Request interrupted|tool use was rejected|InputValidationError|File does not exist|exceeds maximum allowed|is a directory/i
/** A sentence that says why something failed or what it needs. */
const CAUSE =
  /\b(because|since|means|the (?:issue|problem|error|cause|reason) (?:is|was)|caused by|requires?|needs? (?:to|a|an|the)|must|instead|isn't|doesn't|is not|does not|cannot|can't|no (?:upstream|such)|missing|ignored|not (?:allowed|supported))\b/i
/** A sentence that states the fix. */
const FIX =
  /\b(fix(?:ed)? (?:by|with|it)|use|run|add|set|switch|instead|need to|should|must|with `)/i
/** Words that make a prompt a correction or a standing preference. */
const PREFERENCE =
  /\b(don't|do not|never|always|instead|prefer|please (?:use|don't|do not|always|never)|no,|stop |not like that|wrong|rather)\b/i
/** A decision names what was chosen over what (a reason alone is often narration). */
const CHOICE =
  /\b(decided|chose|chosen|opted|going with|instead of|rather than|in favou?r of|switched to|settled on|over a|over the)\b/i
/** How an acknowledgement or a plan opens: what the agent is about to do, not what was decided. */
const ANNOUNCEMENT =
  /^(?:(?:now|next|then|first|understood|sure|ok(?:ay)?|got it|right|great|perfect)\b[,.:!]?\s*)+|^(?:i|we)(?:'ll| will| am going to|'m going to)\b/i
/** How far after a failure the fix is looked for, in tool calls. */
const FIX_WINDOW_CALLS = 8
/** At most this many decisions and preferences per session: the rest is seldom a lesson. */
const MAX_DECISIONS = 6
const MAX_PREFERENCES = 4

/** Reads a session's JSONL lines (main transcript, then sub-agent files) into lessons. */
export class SessionLessonCollector {
  private readonly events: Event[] = []
  private readonly summaries: { text: string; uuid: string }[] = []
  private sessionId = ''
  private firstPrompt = ''

  /** Reads one line; lines that are not JSON records of the conversation are skipped. */
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
    if (!this.sessionId && typeof record.sessionId === 'string') this.sessionId = record.sessionId
    const uuid = record.uuid
    const content = isRecord(record.message) ? record.message.content : null
    if (record.isCompactSummary === true) {
      const text = typeof content === 'string' ? content : textBlocks(content)
      this.summaries.push({ text, uuid })
      return
    }
    if (record.isMeta === true || record.isSidechain === true) return
    if (typeof content === 'string') {
      if (record.type === 'user' && isHumanPromptText(content)) this.prompt(content, uuid)
      return
    }
    if (!Array.isArray(content)) return
    for (const block of content) {
      if (!isRecord(block)) continue
      if (block.type === 'text' && typeof block.text === 'string') {
        if (record.type === 'assistant') this.events.push({ kind: 'text', text: block.text, uuid })
        else if (isHumanPromptText(block.text)) this.prompt(block.text, uuid)
      } else if (block.type === 'tool_use' && typeof block.id === 'string') {
        const input = isRecord(block.input) ? block.input : {}
        const command =
          typeof input.command === 'string'
            ? input.command
            : typeof input.file_path === 'string'
              ? input.file_path
              : ''
        this.events.push({
          kind: 'call',
          id: block.id,
          tool: String(block.name ?? ''),
          command,
          uuid,
        })
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const text = toolResultText(block.content)
        const error = block.is_error === true || /^Exit code [1-9]\d*\b/.test(text)
        this.events.push({ kind: 'result', id: block.tool_use_id, error, text, uuid })
      }
    }
  }

  private prompt(text: string, uuid: string): void {
    if (!this.firstPrompt) this.firstPrompt = text.trim()
    this.events.push({ kind: 'prompt', text, uuid })
  }

  /** The lessons found, redacted, with the session id first in every entry's sources. */
  lessons(sessionIdFallback = ''): PatternCandidate[] {
    const session = this.sessionId || sessionIdFallback
    const task = clip(this.firstPrompt.replace(/\s+/g, ' '), 90)
    const context = (where: string) =>
      task ? `${where}, while working on "${task}".` : `${where}.`
    const found = [
      ...this.errorFixes(context),
      ...this.summaryLessons(context),
      ...this.decisions(context),
      ...this.preferences(),
    ]
    return found.map((lesson) => finish(lesson, session))
  }

  /** Failed commands with the cause the agent named and the similar command that then worked. */
  private errorFixes(context: (where: string) => string): Lesson[] {
    const calls = new Map<string, Extract<Event, { kind: 'call' }>>()
    for (const event of this.events) if (event.kind === 'call') calls.set(event.id, event)
    const lessons: Lesson[] = []
    const seen = new Set<string>()
    this.events.forEach((event, position) => {
      if (event.kind !== 'result' || !event.error || MECHANICAL.test(event.text)) return
      const call = calls.get(event.id)
      if (call?.tool !== 'Bash' || call.command === '') return
      const symptom = errorLineOf(event.text.replaceAll('\\n', '\n'))
      if (symptom.length < 12 || seen.has(symptom)) return
      let cause = ''
      let fix: { command: string; uuid: string } | null = null
      let callsSeen = 0
      for (const later of this.events.slice(position + 1)) {
        if (later.kind === 'prompt') break
        if (later.kind === 'text' && !cause) cause = firstSentence(later.text, CAUSE)
        if (later.kind === 'call') {
          callsSeen += 1
          if (callsSeen > FIX_WINDOW_CALLS) break
        }
        if (later.kind === 'result' && !later.error) {
          const retry = calls.get(later.id)
          if (
            retry?.tool === 'Bash' &&
            retry.command !== call.command &&
            sharesTarget(call.command, retry.command)
          ) {
            fix = { command: retry.command, uuid: later.uuid }
            break
          }
        }
      }
      if (!fix && !FIX.test(cause)) return
      seen.add(symptom)
      const command = clip(firstLine(call.command), 120)
      const fixText = fix
        ? `Fix: \`${clip(firstLine(fix.command), 160)}\` worked.`
        : `Fix: ${cause}`
      lessons.push({
        category: 'tool-failure',
        title: `\`${clip(firstWords(call.command, 3), 40)}\` fails: ${clip(symptom, 90)}`,
        observation: `\`${command}\` failed with: ${clip(symptom, 240)}`,
        details: cause && fix ? `Cause: ${clip(cause, 300)} ${fixText}` : fixText,
        context: context(`Running \`${clip(firstWords(call.command, 4), 60)}\` in this project`),
        sources: [call.uuid, event.uuid, ...(fix ? [fix.uuid] : [])],
      })
    })
    return lessons
  }

  /** The bullets of the "Errors and fixes" and "Problem Solving" parts of compaction summaries. */
  private summaryLessons(context: (where: string) => string): Lesson[] {
    const lessons: Lesson[] = []
    for (const summary of this.summaries) {
      for (const [heading, category] of [
        ['Errors and fixes', 'gotcha'],
        ['Problem Solving', 'effective-approach'],
      ] as const) {
        for (const bullet of bulletsUnder(summary.text, heading)) {
          const split =
            /^\*\*(.+?)\*\*:?\s*(.*)$/.exec(bullet) ?? /^([^:]{8,120}):\s+(.*)$/.exec(bullet)
          const [title, rest] = split ? [split[1] ?? '', split[2] ?? ''] : ['', '']
          if (title.length < 8 || rest.length < 12) continue
          if (/^expected\b/i.test(rest)) continue
          lessons.push({
            category,
            title: clip(title.replace(/:$/, ''), 110),
            observation: clip(title.replace(/:$/, ''), 240),
            details: clip(rest, 600),
            context: context(
              category === 'gotcha'
                ? 'An error met and fixed in this project'
                : 'How a problem in this project was solved',
            ),
            sources: [summary.uuid],
          })
        }
      }
    }
    return lessons
  }

  /** Decisions the agent stated with a reason or a choice between options. */
  private decisions(context: (where: string) => string): Lesson[] {
    const lessons: Lesson[] = []
    for (const event of this.events) {
      if (event.kind !== 'text' || lessons.length >= MAX_DECISIONS) continue
      for (const sentence of decisionSentences(event.text)) {
        if (!CHOICE.test(sentence) || ANNOUNCEMENT.test(sentence)) continue
        if (sentence.length < 40 || lessons.some((lesson) => lesson.observation === sentence))
          continue
        const [choice, reason] = splitReason(sentence)
        lessons.push({
          category: 'architectural-decision',
          title: clip(choice, 100),
          observation: clip(sentence, 300),
          details: `Reason: ${clip(reason, 300)}`,
          context: context('A design choice in this project'),
          sources: [event.uuid],
        })
        if (lessons.length >= MAX_DECISIONS) break
      }
    }
    return lessons
  }

  /** The user's corrections and standing preferences, in their own words. */
  private preferences(): Lesson[] {
    const lessons: Lesson[] = []
    this.events.forEach((event, position) => {
      if (event.kind !== 'prompt' || lessons.length >= MAX_PREFERENCES) return
      const sentence = firstSentence(event.text, PREFERENCE)
      if (sentence.length < 15 || sentence.length > 300) return
      const reply = this.events.slice(position + 1).find((later) => later.kind === 'text')
      const after = reply?.kind === 'text' ? firstSentence(reply.text, /\w/) : ''
      lessons.push({
        category: 'user-preference',
        title: clip(sentence, 100),
        observation: `The user said: "${clip(sentence, 280)}"`,
        details: after
          ? `The agent then: ${clip(after, 240)}`
          : 'A direct instruction from the user.',
        context: 'Any work for this user in this project.',
        sources: [event.uuid],
      })
    })
    return lessons
  }
}

/** A lesson before it gets its domain, tags and session. */
interface Lesson {
  category: PatternCategory
  title: string
  observation: string
  details: string
  context: string
  sources: string[]
}

function finish(lesson: Lesson, session: string): PatternCandidate {
  const clean = (text: string) => redactSecrets(text.replace(/\s+/g, ' ').trim())
  const text = `${lesson.title} ${lesson.observation} ${lesson.details}`
  const domain = domainSlug(guessDomain(text, lesson.context))
  return {
    domain,
    category: lesson.category,
    title: clean(lesson.title),
    observation: clean(lesson.observation),
    details: clean(lesson.details),
    context: clean(lesson.context),
    tags: [lesson.category, ...(domain === 'general' ? [] : [domain])],
    sources: [...new Set([session, ...lesson.sources].filter(Boolean))],
  }
}
