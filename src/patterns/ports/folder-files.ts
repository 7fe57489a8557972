/**
 * Text files in one folder Somnus owns outside the project and the brain: the user-scope pattern
 * folder `~/.claude/rem/patterns/<project-id>/` and Claude Code's auto-memory folder (MEMORY.md).
 * Like `ProjectFiles`, a path that leaves the folder (`..`, absolute, NUL, a symlink out) is
 * refused with OUTSIDE_BRAIN before anything is read or written.
 */
export interface FolderFiles {
  /** The file's text, or null when it does not exist. */
  read(path: string): Promise<string | null>
  /** Creates or replaces the file atomically, making its folders. */
  write(path: string, text: string): Promise<void>
  /** Names of the files directly in `folder` ('' for the root) ending in `suffix`, sorted; [] when missing. */
  list(folder: string, suffix: string): Promise<string[]>
}
