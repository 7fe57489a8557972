/** The few files Somnus owns in the project folder, outside the brain (`.claude/settings.json`). */

/**
 * Text files addressed by slash-separated paths relative to the project folder. Like `BrainFiles`,
 * a path that leaves the folder (`..`, absolute, NUL, a symlink out) is refused with
 * OUTSIDE_BRAIN before anything is read or written.
 */
export interface ProjectFiles {
  /**
   * The file's text, or null when it does not exist. A file where a folder on the way belongs
   * (`.claude` a file) is an ENVIRONMENT error, so a caller learns before writing anything else.
   */
  read(path: string): Promise<string | null>
  /** Creates or replaces the file atomically, making its folders. */
  write(path: string, text: string): Promise<void>
  /** Names of the folders directly in `path` (symlinks are not folders), sorted; [] when missing. */
  folders(path: string): Promise<string[]>
}
