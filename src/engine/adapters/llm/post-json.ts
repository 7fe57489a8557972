/**
 * POST a JSON body and read a JSON answer, the way every provider SDK does: a timeout per attempt,
 * retries with exponential backoff and jitter on 429, 5xx and network failures (honouring
 * `retry-after`), and errors mapped once to Somnus codes with messages that never hold the key.
 */
import { SomnusError } from '../../core/errors.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import { abortedError, throwIfAborted } from './aborted-error.ts'

/** Settings shared by the HTTP transports; all optional so callers pass only what they change. */
export interface HttpSettings {
  /** Injectable for tests and proxies. @default globalThis.fetch */
  fetch?: typeof fetch
  /** Milliseconds one attempt may take, body included. @default 60_000 */
  timeoutMs?: number
  /** Extra attempts after the first on 429, 5xx, timeouts and network errors. @default 3 */
  maxRetries?: number
  /** Waits between retries; injectable so tests do not sleep. Should end early when `signal` fires. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>
  /** Source of jitter in [0, 1). @default Math.random */
  random?: () => number
}

/** One JSON POST. */
export interface PostJsonRequest extends HttpSettings {
  /** Names the provider in messages, e.g. `anthropic`. */
  provider: string
  url: string
  headers: Record<string, string>
  body: unknown
  /** Values to scrub from every message (API keys). */
  secrets?: Array<string | undefined>
  /** Says how to change the URL, appended to MODEL_UNREACHABLE messages. */
  urlHint?: string
  /** Says how to fix a 401/403, appended to MODEL_FAILED messages for those statuses. */
  authHint?: string
  /** The caller's cancellation: aborts the request in flight and stops retrying (ABORTED). */
  signal?: AbortSignal | undefined
}

const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_MAX_RETRIES = 3
const INITIAL_BACKOFF_MS = 500
const MAX_BACKOFF_MS = 8_000
/** A longer `retry-after` than this is not waited for (the SDKs use the same 60 s ceiling). */
const MAX_RETRY_AFTER_MS = 60_000
/** Provider messages are echoed to users; a stack trace or HTML page would drown the point. */
const MAX_PROVIDER_MESSAGE_CHARS = 500

/** Only the HTTP settings of a larger options object, so provider settings never reach `fetch`. */
export function pickHttpSettings(options: HttpSettings): HttpSettings {
  const { fetch, timeoutMs, maxRetries, sleep, random } = options
  return { fetch, timeoutMs, maxRetries, sleep, random }
}

/** Waits `milliseconds` on the real clock, or less when `signal` fires (the caller then checks it). */
export function sleepFor(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, milliseconds)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** Sends `request` and returns the parsed JSON body of the first 2xx answer, or throws SomnusError. */
export async function postJson(request: PostJsonRequest): Promise<unknown> {
  const fetchFunction = request.fetch ?? globalThis.fetch
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const maxRetries = request.maxRetries ?? DEFAULT_MAX_RETRIES
  const sleep = request.sleep ?? sleepFor
  const random = request.random ?? Math.random
  const scrub = (text: string) => redactSecrets(text, request.secrets ?? [])

  const cancel = request.signal
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(cancel, request.provider)
    const retriesLeft = attempt < maxRetries
    let response: Response
    let bodyText: string
    try {
      // One signal covers headers and body: a server that stalls mid-body is as dead as a silent one.
      const timeout = AbortSignal.timeout(timeoutMs)
      const signal = cancel === undefined ? timeout : AbortSignal.any([timeout, cancel])
      response = await fetchFunction(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...request.headers },
        body: JSON.stringify(request.body),
        signal,
      })
      bodyText = await response.text()
    } catch (error) {
      // The caller's abort is a decision, not a network failure: never retried.
      if (cancel?.aborted) throw abortedError(request.provider, cancel)
      if (retriesLeft) {
        await sleep(backoffDelay(attempt, random), cancel)
        continue
      }
      throw unreachableError(request, error, timeoutMs, attempt + 1, scrub)
    }

    if (response.ok) {
      const parsed = safeParseJson(bodyText)
      if (parsed.ok) return parsed.value
      throw new SomnusError(
        'MODEL_FAILED',
        `${request.provider}: ${request.url} answered ${response.status} with a body that is not JSON: ${scrub(shorten(bodyText))}`,
        { details: { status: response.status } },
      )
    }

    const retryable = response.status === 429 || response.status >= 500
    if (retryable && retriesLeft) {
      const hinted = retryAfterMs(response.headers)
      const delay =
        hinted !== undefined && hinted <= MAX_RETRY_AFTER_MS
          ? hinted
          : backoffDelay(attempt, random)
      await sleep(delay, cancel)
      continue
    }
    throw failedError(request, response, bodyText, attempt + 1, scrub)
  }
}

/** Exponential backoff with up to 25% jitter, so many clients do not retry in lockstep. */
export function backoffDelay(attempt: number, random: () => number): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS)
  return Math.round(base * (1 - 0.25 * random()))
}

/** The wait a server asked for: `retry-after-ms` (OpenAI), `retry-after` in seconds or as a date. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '')
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds
  const value = headers.get('retry-after')
  if (value === null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(value)
  if (Number.isFinite(date)) return Math.max(0, date - now)
  return undefined
}

/** The provider's own error text: Anthropic and OpenAI use `error.message`; Ollama `error` alone. */
export function providerErrorMessage(bodyText: string): string {
  const parsed = safeParseJson(bodyText)
  if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
    const body = parsed.value as { error?: unknown; message?: unknown }
    if (typeof body.error === 'string') return body.error
    if (typeof body.error === 'object' && body.error !== null) {
      const message = (body.error as { message?: unknown }).message
      if (typeof message === 'string') return message
    }
    if (typeof body.message === 'string') return body.message
  }
  return bodyText.trim() === '' ? '(empty body)' : bodyText
}

/** `JSON.parse` that returns instead of throwing. */
export function safeParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function failedError(
  request: PostJsonRequest,
  response: Response,
  bodyText: string,
  attempts: number,
  scrub: (text: string) => string,
): SomnusError {
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
  const providerMessage = scrub(shorten(providerErrorMessage(bodyText))).replace(/[.\s]+$/, '')
  const tries = attempts > 1 ? ` after ${attempts} attempts` : ''
  const hint =
    (response.status === 401 || response.status === 403) && request.authHint
      ? ` ${request.authHint}`
      : ''
  return new SomnusError(
    'MODEL_FAILED',
    `${request.provider}: ${request.url} answered ${status}${tries}: ${providerMessage}.${hint}`,
    { details: { status: response.status, attempts } },
  )
}

function unreachableError(
  request: PostJsonRequest,
  error: unknown,
  timeoutMs: number,
  attempts: number,
  scrub: (text: string) => string,
): SomnusError {
  const timedOut = error instanceof Error && error.name === 'TimeoutError'
  const reason = timedOut ? `no answer within ${timeoutMs} ms` : describeNetworkError(error)
  const tries = attempts > 1 ? ` (${attempts} attempts)` : ''
  const hint = request.urlHint ? ` ${request.urlHint}` : ''
  return new SomnusError(
    'MODEL_UNREACHABLE',
    `${request.provider}: cannot reach ${request.url}: ${scrub(reason)}${tries}.${hint}`,
    { details: { url: request.url, attempts, timedOut } },
  )
}

/** Node's fetch says only "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND) is the cause. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code
    return typeof code === 'string' ? `${code} (${cause.message})` : cause.message
  }
  return error.message
}

function shorten(text: string): string {
  const trimmed = text.trim()
  return trimmed.length <= MAX_PROVIDER_MESSAGE_CHARS
    ? trimmed
    : `${trimmed.slice(0, MAX_PROVIDER_MESSAGE_CHARS)}...`
}
