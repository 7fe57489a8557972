/**
 * What the byte-level walk of one JSONL line found: the record's type and flags, and byte spans of
 * the few strings the counts need. Spans point into the walked bytes and are valid until the next walk.
 */

/** Top-level `type` not read yet (a record without one counts nothing). */
export const RECORD_UNSEEN = 0
/** `type: "user"`. */
export const RECORD_USER = 1
/** `type: "assistant"`. */
export const RECORD_ASSISTANT = 2
/** Any other type: progress, system, file-history-snapshot, ... */
export const RECORD_OTHER = 3

/** Bits of LineFacts.seen: which top-level keys the walk has read. */
export const SEEN_TYPE = 1
/** The top-level `timestamp` was read (whatever its value). */
export const SEEN_TIMESTAMP = 2
/** The top-level `isMeta` was read. */
export const SEEN_IS_META = 4
/** The top-level `isSidechain` was read. */
export const SEEN_IS_SIDECHAIN = 8
/** The top-level `isCompactSummary` was read. */
export const SEEN_IS_COMPACT_SUMMARY = 16
/** All three flags. */
export const SEEN_FLAGS = SEEN_IS_META | SEEN_IS_SIDECHAIN | SEEN_IS_COMPACT_SUMMARY

/** A content block of another kind (thinking, tool_reference, ...). */
export const BLOCK_OTHER = 0
/** `{type: "text"}`. */
export const BLOCK_TEXT = 1
/** `{type: "tool_use"}`. */
export const BLOCK_TOOL_USE = 2
/** `{type: "tool_result"}`. */
export const BLOCK_TOOL_RESULT = 3
/** `{type: "image"}`. */
export const BLOCK_IMAGE = 4

/** `message.content` absent or neither string nor array. */
export const CONTENT_NONE = 0
/** `message.content` is a string. */
export const CONTENT_STRING = 1
/** `message.content` is an array of blocks. */
export const CONTENT_ARRAY = 2

/** Spans of one content block (`open`/`close` are a string's quotes; -1: absent or not a string). */
export class BlockSpans {
  kind = BLOCK_OTHER
  idOpen = -1
  idClose = -1
  nameOpen = -1
  nameClose = -1
  inputStart = -1
  inputEnd = -1
  textOpen = -1
  textClose = -1
  isError = false
  /** Filled in by the counter: a text block's text; a tool_use block's id, tool and task slugs. */
  text = ''
  id: string | null = null
  name = ''
  slugs: readonly string[] = []
  /** A tool_use block that dispatches Somnus's own sleep (not counted as a tool). */
  sleep = false

  /** Makes the object ready for the next block. */
  reset(): void {
    this.kind = BLOCK_OTHER
    this.idOpen = this.nameOpen = this.inputStart = this.textOpen = -1
    this.isError = false
  }
}

/** The facts of one line; one instance is reused for every line. */
export class LineFacts {
  recordType = RECORD_UNSEEN
  /** SEEN_* bits of the keys read so far. */
  seen = 0
  timestampOpen = -1
  timestampClose = -1
  isMeta = false
  isSidechain = false
  isCompactSummary = false
  hasMessage = false
  idOpen = -1
  idClose = -1
  inputTokens = 0
  outputTokens = 0
  cacheCreationTokens = 0
  cacheReadTokens = 0
  contentKind = CONTENT_NONE
  contentOpen = -1
  contentClose = -1
  /** Starts with one block, so the array holds objects from the start (its shape never changes). */
  readonly blocks: BlockSpans[] = [new BlockSpans()]
  blockCount = 0
  /** The block being walked (the last one `nextBlock` gave). */
  currentBlock = this.blocks[0] as BlockSpans
  /** tool_result blocks in the content (known as soon as the content is walked). */
  toolResults = 0

  /** Forgets the previous line. */
  reset(): void {
    this.recordType = RECORD_UNSEEN
    this.seen = 0
    this.timestampOpen = -1
    this.isMeta = this.isSidechain = this.isCompactSummary = false
    this.resetMessage()
    this.hasMessage = false
  }

  /** Forgets the message (a repeated `message` key replaces the first, as in JSON.parse). */
  resetMessage(): void {
    this.hasMessage = true
    this.idOpen = -1
    this.resetUsage()
    this.resetContent()
  }

  /** Forgets the usage numbers. */
  resetUsage(): void {
    this.inputTokens = this.outputTokens = this.cacheCreationTokens = this.cacheReadTokens = 0
  }

  /** Forgets the content. */
  resetContent(): void {
    this.contentKind = CONTENT_NONE
    this.blockCount = 0
    this.toolResults = 0
  }

  /** A fresh block span holder at the end of the block list. */
  nextBlock(): BlockSpans {
    if (this.blocks.length === this.blockCount) this.blocks.push(new BlockSpans())
    const block = this.blocks[this.blockCount++] as BlockSpans
    block.reset()
    this.currentBlock = block
    return block
  }
}
