/** The one error type Somnus throws on purpose: a code for programs, a message that names the fix. */

/** Every deliberate failure, as a stable string code. */
export type SomnusErrorCode =
  | 'CONTEXT_NOT_FOUND'
  | 'CONTEXT_EXISTS'
  | 'USAGE'
  | 'INVALID_INPUT'
  | 'NOT_FOUND'
  | 'STATE_LOCKED'
  | 'STATE_CORRUPT'
  | 'TRANSCRIPT_UNREADABLE'
  | 'MODEL_CONFIG'
  | 'MODEL_UNREACHABLE'
  | 'MODEL_FAILED'
  | 'MODEL_OUTPUT_INVALID'
  /** The caller's AbortSignal cancelled a model call (a subprocess is killed, a request dropped). */
  | 'ABORTED'
  /** A path that would land outside the places Somnus owns (a `..`, an absolute path, a symlink out). */
  | 'OUTSIDE_BRAIN'
  /** The machine refused a file operation (read-only folder, full disk, a file where a folder belongs). */
  | 'ENVIRONMENT'
  /** Another `sleep run` holds the brain. */
  | 'SLEEP_RUNNING'
  /** Another process has the embedded (PGlite) service database open. */
  | 'DATABASE_BUSY'
  /** The caller already has as much work waiting as it may: try again shortly (HTTP 429). */
  | 'BUSY'

/** A failure the user can act on: `message` says what went wrong and how to fix it. */
export class SomnusError extends Error {
  readonly code: SomnusErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(
    code: SomnusErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'SomnusError'
    this.code = code
    this.details = options.details
  }
}

/** True for Somnus's own errors, whose message is safe and useful to show as is. */
export function isSomnusError(error: unknown): error is SomnusError {
  return error instanceof SomnusError
}
