/** A chat transport's failure in the form callers branch on. */
import { SomnusError } from '../../core/errors.ts'
import { abortedError } from './aborted-error.ts'

/** A plugged-in transport's message is echoed to users; a whole stack or page would drown it. */
const MAX_FAILURE_CHARS = 1_000

/**
 * A transport's failure as a SomnusError: the built-in transports already throw one; a plugged-in
 * transport may throw anything, and callers branch on codes, so the rest becomes MODEL_FAILED.
 */
export function transportFailure(
  name: string,
  error: unknown,
  signal: AbortSignal | undefined,
): SomnusError {
  if (error instanceof SomnusError) return error
  if (signal?.aborted) return abortedError(name, signal)
  const said = error instanceof Error ? error.message : String(error)
  return new SomnusError(
    'MODEL_FAILED',
    `${name}: the chat transport failed: ${said.slice(0, MAX_FAILURE_CHARS)}. Check the transport passed to createPromptedLanguageModel.`,
    { cause: error },
  )
}
