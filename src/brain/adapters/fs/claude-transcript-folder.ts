/**
 * Where Claude Code keeps transcripts, and whether a path a hook was handed is one of them.
 * A `transcript_path` in a hook payload, or in a merged inbox line, is untrusted text (README
 * "Security"): a repository's committed inbox, or a payload naming /tmp or the repository, must
 * not make Somnus list or book files planted there. Claude Code writes every transcript to
 * `<projects>/<sanitized cwd>/<session id>.jsonl` (docs/design/principles.md; threat model: docs/design/threat-model.md), so only a
 * folder that is a direct child of the projects folder, a real folder (no symlink followed) owned
 * by the user running Somnus, is trusted.
 */
import { lstatSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, dirname, isAbsolute, resolve } from 'node:path'

/** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function claudeProjectsFolder(env: Record<string, string | undefined>): string {
  const claudeHome = env.CLAUDE_CONFIG_DIR || resolve(env.HOME || homedir(), '.claude')
  return resolve(claudeHome, 'projects')
}

/**
 * The folder of `transcriptPath` when it is a direct child of `projectsFolder` (the path resolved
 * lexically, `..` included), a real folder (lstat: a symlink is refused, not followed) and owned
 * by the current user; null otherwise, or when the path is not absolute.
 */
export function confinedTranscriptFolder(
  transcriptPath: string,
  projectsFolder: string,
): string | null {
  if (!isAbsolute(transcriptPath)) return null
  const folder = dirname(resolve(transcriptPath))
  if (dirname(folder) !== resolve(projectsFolder)) return null
  return ownFolder(folder) ? folder : null
}

/**
 * Whether `transcriptPath` is session `sessionId`'s own transcript as Claude Code writes it: named
 * `<session id>.jsonl`, in a confined folder (`confinedTranscriptFolder`), a regular file (not a
 * link, FIFO or device) owned by the current user. What a merged inbox line may name.
 */
export function isConfinedTranscript(
  transcriptPath: string,
  sessionId: string,
  projectsFolder: string,
): boolean {
  if (basename(transcriptPath) !== `${sessionId}.jsonl`) return false
  if (confinedTranscriptFolder(transcriptPath, projectsFolder) === null) return false
  try {
    const info = lstatSync(transcriptPath)
    return info.isFile() && ownedByMe(info.uid)
  } catch {
    return false
  }
}

function ownFolder(folder: string): boolean {
  try {
    const info = lstatSync(folder)
    return info.isDirectory() && ownedByMe(info.uid)
  } catch {
    return false
  }
}

/** True when `uid` is this process's user (always, where there are no uids). */
function ownedByMe(uid: number): boolean {
  const me = process.getuid?.()
  return me === undefined || uid === me
}
