/**
 * What the digest builder gathers from a session's records before it decides what to keep: the
 * raw material of a SessionDigest, each piece with the record id it came from.
 */
import type { ErrorFixTracker } from './error-fixes.ts'
import type { TaskEvent } from './task-events.ts'

/** A shell command the session ran, in order: its program and subcommand, and how it was spelt. */
export interface LoggedCommand {
  key: string
  form: string
  uuid: string
}

/** A piece of text and the record it came from. */
export interface Sourced {
  text: string
  uuid: string
}

/** What started a turn of the main conversation. */
export type TurnTrigger = 'start' | 'human' | 'notice' | 'compaction'

/** The text that closed a turn (no tool call after it), and what the turn answered. */
export interface Closing extends Sourced {
  trigger: TurnTrigger
}

/** A file the session wrote or edited. */
export interface ChangedFile {
  /** Relative to the project folder when inside it. */
  path: string
  /** Created by the session (its first change wrote a file that was not there). */
  created: boolean
  /** First and last record that changed it. */
  uuids: string[]
  /** What the agent said it changed, just before each edit (announcements removed). */
  notes: string[]
  /** The doc comment a whole-file Write opened with, or ''. */
  doc: string
}

/** A commit that went through. */
export interface Commit {
  subject: string
  body: string
  hash: string | null
  uuid: string
}

/** A test run and its summary line. */
export interface TestRun {
  command: string
  figure: string | null
  ok: boolean
  uuid: string
}

/** A task as it stands after the events so far. */
export interface TaskState extends TaskEvent {
  uuids: string[]
}

/** Everything gathered; assembleDigest turns it into a SessionDigest. */
export interface DigestMaterial {
  sessionId: string
  startedAt: string | null
  endedAt: string | null
  cwd: string | null
  branch: string | null
  files: string[]
  prompts: Sourced[]
  /** The user's answers to the agent's questions, and the calls they rejected. */
  answers: Sourced[]
  compactions: Sourced[]
  closings: Closing[]
  /** Decision sentences with a score (reasons weigh more than bare choices). */
  decisions: Array<Sourced & { score: number }>
  changes: Map<string, ChangedFile>
  /** Files the session read (so a later Write rewrote them rather than created them). */
  readPaths: Set<string>
  /** Shell commands that changed state other than commits and task updates (installs, moves). */
  stateCommands: Sourced[]
  commits: Commit[]
  pushes: Sourced[]
  testRuns: TestRun[]
  tasks: Map<string, TaskState>
  /** The last todo list written (TodoWrite replaces the whole list). */
  todos: { events: TaskEvent[]; uuid: string } | null
  errors: ErrorFixTracker
  /** Names the session's own edits defined, imported or removed (their compile errors are edits in progress). */
  touchedNames: Set<string>
  /** The main conversation's shell commands, in order. */
  commandLog: LoggedCommand[]
}
