/**
 * Builds a SessionDigest from a session's transcript records: the main file, then its sub-agent
 * and compaction files (`<session>/subagents/agent-*.jsonl`). Pure: the caller reads and parses;
 * `wantsToolOutput` tells a fast reader which tool results are worth parsing at all (most bytes of
 * a transcript are tool output the digest never looks at).
 */
import { changesFilesOrState } from '../transcript/bash-command-effects.ts'
import { carriesToolOutput, personRefusal } from '../transcript/provenance.ts'
import { type CountWindow, inWindow, isHumanPrompt } from '../transcript/structural-record.ts'
import { toolResultText } from '../transcript/tool-result-text.ts'
import { countWindowFor } from '../transcript/transcript-analyzer.ts'
import { CHANGE_TOOLS, isRecord, NOISE_TOOLS } from '../transcript/transcript-rules.ts'
import { assembleDigest } from './assemble-digest.ts'
import { addedCodeOf, announcedChange, editNote, openingDocComment } from './change-notes.ts'
import { commandParts, failedPart, fixesState, passedParts } from './command-parts.ts'
import { commitHashOf, commitMessageOf } from './commit-command.ts'
import {
  compactionSections,
  isCompactionText,
  sectionBullets,
  sectionNamed,
} from './compaction-summary.ts'
import { DecisionChecks } from './decision-checks.ts'
import { type DecisionCandidate, decisionCandidates } from './digest-decisions.ts'
import type { DigestMaterial, Sourced, TurnTrigger } from './digest-material.ts'
import { oneLine } from './digest-text.ts'
import { changeText } from './error-fix-text.ts'
import { ErrorFixTracker } from './error-fixes.ts'
import { limitationIn } from './limitations.ts'
import type { SessionDigest } from './session-digest.ts'
import {
  shellTaskEvents,
  shellWords,
  type TaskEvent,
  taskToolEvent,
  todoWriteEvents,
} from './task-events.ts'
import { runsTests, testFigureOf } from './test-figures.ts'
import {
  commandKey,
  isSummaryAnswer,
  rejectionOf,
  type ToolCall,
  userAnswerOf,
} from './tool-call-text.ts'
import { noteTouchedNames } from './touched-names.ts'
import { commandForm } from './working-style.ts'

/** Which kind of transcript file the records come from. */
export type DigestFileKind = 'main' | 'subagent' | 'compaction'

/** What to digest. */
export interface DigestBuilderOptions {
  sessionId: string
  /** ISO time: records at or before it were consolidated already and are left out. */
  since?: string
  /** The rendered digest's budget in tokens (default 2,500). */
  maxTokens?: number
}

type Json = Record<string, unknown>

/** Shell programs whose commands are recorded as commits or task updates, not as state changes. */
const TRACKED_PROGRAMS = new Set(['git', 'bd', 'br', 'gh'])

/** Collects a session's records; `build()` returns its digest. */
export class SessionDigestBuilder {
  private readonly window: CountWindow
  private readonly options: DigestBuilderOptions
  private kind: DigestFileKind = 'main'
  private readonly calls = new Map<string, ToolCall>()
  private readonly material: DigestMaterial
  private trigger: TurnTrigger = 'start'
  private turnText: Sourced | null = null
  /** The agent's last text before the next tool call: what that call is about to do. */
  private announcement = ''
  /** A limitation the agent just named, until its next edit (the way around it). */
  private limitation: { statement: string; cause: string; uuid: string } | null = null
  /** Decisions waiting for the session to act on them. */
  private readonly decisionChecks = new DecisionChecks<DecisionCandidate>()

  /** Throws USAGE when `since` is not a date. */
  constructor(options: DigestBuilderOptions) {
    this.options = options
    this.window = countWindowFor(options.since)
    this.material = {
      sessionId: options.sessionId,
      startedAt: null,
      endedAt: null,
      cwd: null,
      branch: null,
      files: [],
      prompts: [],
      answers: [],
      compactions: [],
      closings: [],
      decisions: [],
      changes: new Map(),
      readPaths: new Set(),
      stateCommands: [],
      commits: [],
      pushes: [],
      testRuns: [],
      tasks: new Map(),
      todos: null,
      errors: new ErrorFixTracker(),
      touchedNames: new Set(),
      commandLog: [],
    }
  }

  /** Records that follow come from the file `name` (relative to the project folder) of `kind`. */
  beginFile(name: string, kind: DigestFileKind): void {
    this.closeTurn()
    this.kind = kind
    this.material.files.push(name)
  }

  /** True when the result of tool call `toolUseId` matters beyond whether it failed. */
  wantsToolOutput(toolUseId: string): boolean {
    const call = this.calls.get(toolUseId)
    if (call === undefined) return false
    if (call.name === 'AskUserQuestion' || call.name === 'TaskCreate' || call.name === 'Write')
      return true
    if (call.name !== 'Bash') return false
    const command = call.command
    return (
      runsTests(command) ||
      /\bgit\b[^\n]*\b(?:commit|push)\b|\b(?:bd|br)\s+create\b|\bgh\s+(?:pr|issue)\b/.test(command)
    )
  }

  /** Feeds one parsed record (a tool result's content may be left out when not wanted). */
  addRecord(record: unknown): void {
    if (!isRecord(record)) return
    if (record.type !== 'user' && record.type !== 'assistant') return
    const message = isRecord(record.message) ? record.message : null
    if (message === null) return
    const uuid = typeof record.uuid === 'string' ? record.uuid : ''
    const counted = inWindow(this.window, record.timestamp)
    if (counted) this.noteEnvelope(record)
    if (record.type === 'assistant') this.addAssistant(message, uuid, counted)
    else if (counted) this.addUser(record, message, uuid)
  }

  /** The digest of everything fed so far. */
  build(): SessionDigest {
    this.closeTurn()
    this.decisionChecks.settle()
    const decisions = this.material.decisions.filter(
      (decision) => !this.decisionChecks.isDropped(decision),
    )
    return assembleDigest({ ...this.material, decisions }, this.options.maxTokens ?? 2500)
  }

  private noteEnvelope(record: Json): void {
    const material = this.material
    const timestamp = record.timestamp
    if (typeof timestamp === 'string') {
      if (material.startedAt === null || timestamp < material.startedAt)
        material.startedAt = timestamp
      if (material.endedAt === null || timestamp > material.endedAt) material.endedAt = timestamp
    }
    if (this.kind !== 'main') return
    if (material.cwd === null && typeof record.cwd === 'string') material.cwd = record.cwd
    if (typeof record.gitBranch === 'string' && record.gitBranch !== '')
      material.branch = record.gitBranch
  }

  private addAssistant(message: Json, uuid: string, counted: boolean): void {
    if (!Array.isArray(message.content)) return
    for (const block of message.content) {
      if (!isRecord(block)) continue
      if (block.type === 'tool_use') {
        const call = this.registerCall(block, uuid)
        if (counted && call !== null) this.addToolUse(call)
        continue
      }
      if (!counted) continue
      if (block.type === 'text' && typeof block.text === 'string')
        this.addAgentText(block.text, uuid)
      else if (
        block.type === 'thinking' &&
        typeof block.thinking === 'string' &&
        this.kind === 'main'
      )
        this.addDecisions(block.thinking, uuid, -1)
    }
  }

  private addAgentText(text: string, uuid: string): void {
    if (this.kind === 'compaction') {
      if (isSummaryAnswer(text)) this.material.compactions.push({ text, uuid })
      return
    }
    this.announcement = text
    if (this.kind !== 'main') return
    this.material.errors.agentText(text)
    const limitation = limitationIn(text)
    if (limitation !== null) this.limitation = { ...limitation, uuid }
    if (text.trim() !== '') this.turnText = { text: text.trim(), uuid }
    this.addDecisions(text, uuid, 0)
  }

  private addDecisions(text: string, uuid: string, bonus: number): void {
    for (const candidate of decisionCandidates(text, uuid, bonus))
      if (this.decisionChecks.admit(candidate, candidate.text, bonus < 0))
        this.material.decisions.push(candidate)
  }

  private registerCall(block: Json, uuid: string): ToolCall | null {
    const name = typeof block.name === 'string' ? block.name : '(unnamed)'
    const input = isRecord(block.input) ? block.input : {}
    const command = name === 'Bash' && typeof input.command === 'string' ? input.command : ''
    const call: ToolCall = {
      name,
      input,
      uuid,
      key: name === 'Bash' ? commandKey(command) : name,
      command,
      kind: this.kind,
    }
    if (typeof block.id === 'string') this.calls.set(block.id, call)
    return call
  }

  private addToolUse(call: ToolCall): void {
    const announced = this.announcement
    // "Let me fix X." → Read → Edit: looking at the file first does not spend the announcement.
    if (!NOISE_TOOLS.has(call.name)) this.announcement = ''
    if (this.kind === 'main') {
      this.turnText = null
      this.material.errors.toolCalled()
    }
    const material = this.material
    const limitation = this.limitation
    if (!NOISE_TOOLS.has(call.name)) this.limitation = null
    if (limitation !== null && CHANGE_TOOLS.has(call.name) && this.kind === 'main') {
      const raw = call.input.file_path ?? call.input.notebook_path
      const path = typeof raw === 'string' ? this.relative(raw) : ''
      const note = announced === '' ? '' : editNote(announcedChange(announced), call.input)
      material.errors.limitation(
        limitation.statement,
        limitation.cause,
        path,
        changeText(path, note, addedCodeOf(call.input, limitation.statement)),
        [limitation.uuid, call.uuid],
      )
    }
    if (this.kind === 'main' && (CHANGE_TOOLS.has(call.name) || call.name === 'Bash'))
      this.decisionChecks.acted(call.command !== '' ? call.command : JSON.stringify(call.input))
    if (CHANGE_TOOLS.has(call.name)) {
      this.addChange(call, announced === '' ? '' : editNote(announcedChange(announced), call.input))
      return
    }
    if (call.name === 'Read' && typeof call.input.file_path === 'string')
      material.readPaths.add(this.relative(call.input.file_path))
    if (call.name === 'Bash' && call.command !== '') {
      if (this.kind === 'main') this.logCommand(call)
      return
    }
    if (call.name === 'TodoWrite') {
      const events = todoWriteEvents(call.input)
      if (events !== null) material.todos = { events, uuid: call.uuid }
    }
  }

  /** Each step of a compound command (`git add … && git commit …`) is a step of the workflow. */
  private logCommand(call: ToolCall): void {
    // Split outside quotes: the lines of a quoted commit message are no commands.
    for (const part of commandParts(call.command)) {
      if (part.setup) continue
      // A leftover of quoting (`)"` after a here-document) is no command.
      if (/^[\w./]/.test(part.key))
        this.material.commandLog.push({
          key: part.key,
          form: commandForm(part.text, part.key),
          uuid: call.uuid,
        })
    }
  }

  private addChange(call: ToolCall, note: string): void {
    const material = this.material
    const raw = call.input.file_path ?? call.input.notebook_path
    if (typeof raw !== 'string' || raw === '') return
    const path = this.relative(raw)
    let file = material.changes.get(path)
    if (file === undefined) {
      const created = call.name === 'Write' && !material.readPaths.has(path)
      file = { path, created, uuids: [call.uuid], notes: [], doc: '' }
      material.changes.set(path, file)
    } else file.uuids[1] = call.uuid
    if (note !== '' && !file.notes.includes(note)) file.notes.push(note)
    if (call.name === 'Write' && file.doc === '' && typeof call.input.content === 'string')
      file.doc = openingDocComment(path, call.input.content)
    material.errors.edited(path, note, addedCodeOf(call.input), call.uuid)
    noteTouchedNames(material.touchedNames, call.input)
  }

  private addUser(record: Json, message: Json, uuid: string): void {
    const content = message.content
    const blocks = Array.isArray(content) ? content.filter(isRecord) : []
    const results = blocks.filter((block) => block.type === 'tool_result')
    for (const result of results) {
      const call = this.calls.get(typeof result.tool_use_id === 'string' ? result.tool_use_id : '')
      if (call !== undefined)
        this.addResult(record, call, result.is_error === true, toolResultText(result.content), uuid)
    }
    // Tool output is never the person's words, whatever it says (provenance.ts).
    if (carriesToolOutput(record)) return
    const text =
      typeof content === 'string'
        ? content
        : blocks
            .flatMap((block) =>
              block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
            )
            .join('\n')
    if (record.isMeta === true) {
      if (/hook additional context/i.test(text)) this.material.errors.hookError(text, uuid)
      return
    }
    if (this.kind !== 'main' || record.isSidechain === true) return
    if (record.isCompactSummary === true || isCompactionText(text)) {
      this.startTurn('compaction')
      this.material.compactions.push({ text, uuid })
      this.material.errors.epoch++
      // The summary's errors not fixed yet are fixed (or not) by what the session does next.
      for (const bullet of sectionBullets(sectionNamed(compactionSections(text), 'error')))
        if (/^(?:current|pending|open)\b/i.test(bullet.text))
          this.material.errors.summaryProblem(bullet.text.replace(/^\w+\W+/, ''), uuid)
      return
    }
    const human = isHumanPrompt(
      text,
      blocks.some((block) => block.type === 'image'),
    )
    if (human) this.decisionChecks.settle()
    this.startTurn(human ? 'human' : 'notice')
    if (human && text.trim() !== '') this.material.prompts.push({ text: text.trim(), uuid })
  }

  private addResult(
    record: Json,
    call: ToolCall,
    isError: boolean,
    output: string,
    uuid: string,
  ): void {
    const material = this.material
    if (call.name === 'AskUserQuestion' && !isError) {
      const answer = userAnswerOf(output)
      if (answer !== '') material.answers.push({ text: answer, uuid })
      return
    }
    const refusal = personRefusal(record, call.name, isError, output)
    if (refusal !== null) {
      material.answers.push({ text: rejectionOf(call, refusal.said), uuid })
      return
    }
    if (call.name === 'Write' && !isError) {
      this.noteWriteResult(call, output)
      return
    }
    const mainOrShell = call.kind === 'main' || call.name === 'Bash'
    const parts = call.name === 'Bash' ? commandParts(call.command) : []
    if (isError) {
      if (!mainOrShell || NOISE_TOOLS.has(call.name) || CHANGE_TOOLS.has(call.name)) return
      // A compound line failed in one of its parts: the one the output names, else the last.
      const part = failedPart(parts, output)
      material.errors.fail(part?.key ?? call.key, part?.text ?? call.command, output, uuid)
      if (runsTests(call.command))
        material.testRuns.push({
          command: call.command,
          figure: testFigureOf(output),
          ok: false,
          uuid,
        })
      return
    }
    if (call.name === 'Bash') this.shellPassed(parts, uuid)
    else material.errors.succeed(call.key, call.command, uuid)
    if (call.name === 'TaskCreate' || call.name === 'TaskUpdate') {
      const event = taskToolEvent(call.name, call.input, output)
      if (event !== null) this.applyTaskEvents([event], uuid)
      return
    }
    if (call.name !== 'Bash') return
    this.addShellResult(call, output, uuid)
  }

  /** A shell line passed: each part it proves passed, with the parts it ran before it. */
  private shellPassed(parts: ReturnType<typeof commandParts>, uuid: string): void {
    const errors = this.material.errors
    const passed = new Set(passedParts(parts))
    const before: string[] = []
    for (const part of parts) {
      if (passed.has(part)) {
        // Staging, committing and task updates are bookkeeping around a fix, never the fix.
        if (fixesState(part) && !TRACKED_PROGRAMS.has(part.key.split(' ')[0] ?? ''))
          errors.ranCommand(part.key, part.text)
        errors.succeed(part.key, part.text, uuid, before.join(' && '))
      }
      before.push(part.text)
    }
  }

  /** Claude Code says whether a Write created the file or replaced one that was there. */
  private noteWriteResult(call: ToolCall, output: string): void {
    const raw = call.input.file_path
    const file = typeof raw === 'string' ? this.material.changes.get(this.relative(raw)) : undefined
    if (file === undefined || file.uuids[0] !== call.uuid) return
    if (/^\s*File created successfully/.test(output)) file.created = true
    else if (/has been updated|updated successfully|overwr/i.test(output)) file.created = false
  }

  private addShellResult(call: ToolCall, output: string, uuid: string): void {
    const material = this.material
    const command = call.command
    const commit = commitMessageOf(command)
    if (commit !== null && !/nothing to commit|no changes added/i.test(output))
      material.commits.push({ ...commit, hash: commitHashOf(output), uuid: call.uuid })
    if (/\bgit\b[^\n]*\bpush\b/.test(command) && !/Everything up-to-date/.test(output))
      material.pushes.push({ text: oneLine(command), uuid })
    if (runsTests(command))
      material.testRuns.push({ command, figure: testFigureOf(output), ok: true, uuid })
    if (/\b(?:bd|br|gh)\s/.test(command))
      this.applyTaskEvents(shellTaskEvents(command, output), call.uuid)
    const program = shellWords(command.split(/&&|;|\n/)[0] ?? '')[0] ?? ''
    if (!TRACKED_PROGRAMS.has(program) && commit === null && changesFilesOrState(command))
      material.stateCommands.push({ text: oneLine(command), uuid: call.uuid })
  }

  private applyTaskEvents(events: TaskEvent[], uuid: string): void {
    for (const event of events) {
      const known = this.material.tasks.get(event.id)
      if (known === undefined) {
        this.material.tasks.set(event.id, { ...event, uuids: [uuid] })
        continue
      }
      known.status = event.status
      if (event.note !== '') known.note = event.note
      if (!known.uuids.includes(uuid)) known.uuids.push(uuid)
    }
  }

  private startTurn(trigger: TurnTrigger): void {
    this.closeTurn()
    this.trigger = trigger
  }

  private closeTurn(): void {
    if (this.turnText !== null && this.kind === 'main')
      this.material.closings.push({ ...this.turnText, trigger: this.trigger })
    this.turnText = null
  }

  private relative(path: string): string {
    const cwd = this.material.cwd
    if (cwd !== null && path.startsWith(`${cwd}/`)) return path.slice(cwd.length + 1)
    return path
  }
}
