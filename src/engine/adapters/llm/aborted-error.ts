/**
 * Cancellation for model calls: every adapter turns a fired AbortSignal into the same SomnusError,
 * so a caller checks one code whatever model, transport or step was running.
 */
import { SomnusError } from '../../core/errors.ts'

/** The ABORTED error for `source` (e.g. `anthropic`, `extractive`), keeping the signal's reason. */
export function abortedError(source: string, signal: AbortSignal): SomnusError {
  const reason: unknown = signal.reason
  const said = reason instanceof Error && reason.name !== 'AbortError' ? ` (${reason.message})` : ''
  return new SomnusError(
    'ABORTED',
    `${source}: the model call was cancelled by its AbortSignal${said}. Nothing was returned; run it again without aborting to get a result.`,
    { cause: reason },
  )
}

/** Throws the ABORTED error when `signal` has fired; does nothing without a signal. */
export function throwIfAborted(signal: AbortSignal | undefined, source: string): void {
  if (signal?.aborted) throw abortedError(source, signal)
}

/**
 * `work`, or the ABORTED error as soon as `signal` fires, whichever comes first: a transport that
 * ignores the signal (a user's own) must not keep its caller waiting.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  source: string,
): Promise<T> {
  if (signal === undefined) return work
  throwIfAborted(signal, source)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(source, signal))
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}
