/**
 * Where a creature's memory lives (`.self/` by default), named by meaning: the state, two
 * append-only logs (total recall, never rewritten) and four markdown documents. Every change
 * happens inside `exclusive`, which no other process (or caller) enters meanwhile.
 */

/** The append-only logs: `conversation.jsonl` and `dreams.jsonl`. */
export type MindLog = 'conversation' | 'dreams'

/** The documents: `observations.md`, `observations-archive.md`, `priorities.md`, `diary.md`. */
export type MindDocument = 'observations' | 'archive' | 'priorities' | 'diary'

/** The files, read and written. */
export interface MindFiles {
  /** The state's JSON text, or null when the creature is new. */
  readState(): Promise<string | null>
  /** Replaces the state whole (atomically: a reader sees the old text or the new). */
  writeState(text: string): Promise<void>
  /**
   * Appends one line per item (each a JSON text without newline). A torn last line left by a
   * killed writer stays a line of its own: the new lines never join it.
   */
  appendLog(log: MindLog, lines: readonly string[]): Promise<void>
  /** Every line of the log, in order (line n is item n - 1); [] when missing. */
  readLog(log: MindLog): Promise<string[]>
  /**
   * Lines `start` to `start + count - 1` of the log (fewer at its end): what recall indexes a
   * chunk at a time, so a 200,000-line log is never held whole.
   */
  readLogLines(log: MindLog, start: number, count: number): Promise<string[]>
  /** How many lines `readLog` would return, without reading them all (the log only grows). */
  countLines(log: MindLog): Promise<number>
  /** The document's text, or null when missing. */
  readDocument(document: MindDocument): Promise<string | null>
  /** Replaces a document whole (atomically). */
  writeDocument(document: MindDocument, text: string): Promise<void>
  /** Appends text to a document. */
  appendDocument(document: MindDocument, text: string): Promise<void>
}

/** A creature's memory. */
export interface MindStore {
  /** How the creature names its folder in messages (`.self`), or `memory`. */
  readonly location: string
  /** The file name of a log or document, as hits and messages show it (`conversation.jsonl`). */
  fileName(name: MindLog | MindDocument): string
  /** Reading without the lock (status, recall): may see a change half-way, never a torn file. */
  readonly files: MindFiles
  /**
   * Marks this process as the one consolidating, until `release` or until it dies (a killed
   * holder's mark lapses within seconds); null while another live holder has it.
   */
  holdConsolidation(): Promise<{ release(): void } | null>
  /** Runs `work` alone: no other `exclusive` on this creature, in any process, runs meanwhile. */
  exclusive<T>(work: (files: MindFiles) => Promise<T>): Promise<T>
}

/** The file names of the default layout. */
export const MIND_FILE_NAMES: Record<MindLog | MindDocument | 'state', string> = {
  conversation: 'conversation.jsonl',
  dreams: 'dreams.jsonl',
  observations: 'observations.md',
  archive: 'observations-archive.md',
  priorities: 'priorities.md',
  diary: 'diary.md',
  state: 'mind-state.json',
}
