/** The text files of a brain (`_agent_context/`): core files, knowledge, tasks, features. */

/** Text files addressed by slash-separated paths relative to the context root. */
export interface BrainFiles {
  /** The file's text, or null when it does not exist. */
  read(path: string): Promise<string | null>
  /** Creates or replaces the file atomically (a reader sees the old or the new text, never half). */
  write(path: string, text: string): Promise<void>
  /** Deletes the file; no error when it is already gone. */
  remove(path: string): Promise<void>
  /** File names (not folders) directly inside `folder`, sorted; empty when the folder is missing. */
  list(folder: string): Promise<string[]>
}
