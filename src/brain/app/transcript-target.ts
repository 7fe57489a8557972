/** Turning a `<path-or-session>` argument into a transcript file, for the transcript commands. */
import { basename, resolve } from 'node:path'
import { SomnusError } from '../../engine/core/errors.ts'
import type { TranscriptAnalysis } from '../../engine/core/transcript/transcript-analysis.ts'
import type { AnalyzeSession } from '../../engine/ports/session-transcripts.ts'
import type { Brain } from './brain.ts'

/** What the transcript use cases need from the disk (adapter: `engine/adapters/fs/transcript-files.ts`). */
export interface TranscriptFileAccess {
  analyzeSession: AnalyzeSession
  /** One file's counts; null when it does not exist. */
  analyzeTranscriptFile(
    path: string,
    options: { since?: string },
  ): Promise<TranscriptAnalysis | null>
  /** The transcript of a session id, or null (see the adapter for the search order). */
  locateTranscript(
    sessionId: string,
    options: { transcriptPath?: string; projectsDir?: string; cwd?: string; home: string },
  ): Promise<string | null>
  /** The file's lines in order; null when it does not exist. */
  openTranscriptLines(path: string): Promise<AsyncIterable<string> | null>
}

/** Where to look: the caller's folder, home, Claude Code's projects folder, and the brain if any. */
export interface TranscriptSearch {
  cwd: string
  home: string
  /** Default `<home>/.claude/projects`. */
  projectsDir?: string
  /**
   * The brain whose ledger may know the session's transcript path (null: no brain here). Asked
   * only when needed: a transcript path needs no brain, and opening one loads its settings.
   */
  findBrain(): Promise<Brain | null>
}

/** A transcript file and the session id it belongs to. */
export interface TranscriptTarget {
  path: string
  sessionId: string
}

/** Where Claude Code keeps transcripts, for error messages. */
export const TRANSCRIPTS_HINT =
  'Claude Code keeps them in ~/.claude/projects/<project folder>/<session id>.jsonl; pass that path, or a session id.'

/**
 * The transcript `target` names: a path (anything with a slash or ending in .jsonl, relative to
 * `cwd`), or a session id, looked up in the brain's ledger and then on disk.
 */
export async function resolveTranscriptTarget(
  target: string,
  search: TranscriptSearch,
  files: TranscriptFileAccess,
): Promise<TranscriptTarget> {
  if (target.trim() === '') throw new SomnusError('USAGE', `Name a transcript. ${TRANSCRIPTS_HINT}`)
  if (/[/\\]/.test(target) || target.endsWith('.jsonl')) {
    const path = resolve(search.cwd, target)
    return { path, sessionId: basename(path, '.jsonl') }
  }
  const brain = await search.findBrain()
  const ledger = brain === null ? null : await brain.state.read()
  const known = ledger?.sessions.find((session) => session.session_id === target)?.transcript_path
  const path = await files.locateTranscript(target, {
    ...(known ? { transcriptPath: known } : {}),
    ...(search.projectsDir === undefined ? {} : { projectsDir: search.projectsDir }),
    cwd: brain?.projectDir ?? search.cwd,
    home: search.home,
  })
  if (path === null) {
    const where = known ? `${known} (from the sleep ledger) is gone, and ` : ''
    throw new SomnusError(
      'NOT_FOUND',
      `No transcript for session ${target}: ${where}no ${target}.jsonl under the Claude Code projects folder. ${TRANSCRIPTS_HINT}`,
    )
  }
  return { path, sessionId: target }
}

/** The error for a transcript path with no file behind it. */
export function transcriptMissing(path: string): SomnusError {
  return new SomnusError('NOT_FOUND', `Transcript not found: ${path}. ${TRANSCRIPTS_HINT}`)
}
