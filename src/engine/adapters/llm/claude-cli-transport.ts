/**
 * Claude Code as a chat transport: `claude -p --output-format json`, prompt on stdin, as the
 * rem-sleep seed spawns its consolidators. The child is a Claude Code session in the same project,
 * so its own hooks (Somnus's among them) would fire: SOMNUS_SKIP_HOOKS=1 in its environment turns
 * Somnus's hooks off, so it neither books its turn into the ledger nor gets the directive.
 * With an API key the child runs `--bare` (no hooks at all, no CLAUDE.md, no plugins: the leanest
 * start); without one it runs as the user is logged in to Claude Code (OAuth, the usual case),
 * which `--bare` would refuse, with MCP servers, CLAUDE.md and auto memory left out.
 */
import { spawn as nodeSpawn } from 'node:child_process'
import type { Readable, Writable } from 'node:stream'
import * as z from 'zod'
import { SomnusError } from '../../core/errors.ts'
import { redactSecrets } from '../../core/redact-secrets.ts'
import { SKIP_HOOKS_VALUE, SKIP_HOOKS_VARIABLE } from '../../core/skip-hooks.ts'
import type { ChatRequest, ChatResponse, ChatTransport } from '../../ports/chat-transport.ts'
import { abortedError, throwIfAborted } from './aborted-error.ts'
import { safeParseJson } from './post-json.ts'
import { CONFIG_FILE_HINT, firstSetting } from './provider-settings.ts'

/** The part of a child process the transport uses; `node:child_process` `spawn` satisfies it. */
export interface ChildLike {
  stdin: Writable | null
  stdout: Readable | null
  stderr: Readable | null
  kill(signal?: NodeJS.Signals): boolean
  on(event: 'error', listener: (error: Error) => void): this
  on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this
}

/** Starts a process; injectable so tests need no binary. */
export type SpawnFunction = (
  command: string,
  args: string[],
  options: { env: Record<string, string | undefined>; cwd?: string },
) => ChildLike

/** How to run Claude Code. */
export interface ClaudeCliTransportOptions {
  /** `--model`, e.g. `sonnet` or `claude-sonnet-4-5`; Claude Code's default when absent. */
  model?: string
  /** The binary. @default env.SOMNUS_CLAUDE_BIN, then `claude` on PATH */
  binary?: string
  /** The child's environment (it needs PATH, and HOME for Claude Code's login). @default {} */
  env?: Record<string, string | undefined>
  /** `anthropic.api_key` from the config file; passed to the child as ANTHROPIC_API_KEY (then `--bare`). */
  apiKey?: string
  /** `anthropic.base_url` from the config file; passed to the child as ANTHROPIC_BASE_URL. */
  baseUrl?: string
  /** Milliseconds before the child is killed; covers its start-up and its own retries. @default 120_000 */
  timeoutMs?: number
  /** Claude Code's own retries (CLAUDE_CODE_MAX_RETRIES): it retries even a 401 for minutes. @default 3 */
  maxRetries?: number
  cwd?: string
  /** @default node:child_process spawn */
  spawn?: SpawnFunction
}

const DEFAULT_TIMEOUT_MS = 120_000
const DEFAULT_MAX_RETRIES = 3
/** After SIGTERM, a child gets this long to exit before SIGKILL. */
const KILL_GRACE_MS = 2_000
/** Claude Code's providers that do not use ANTHROPIC_API_KEY (checked in its --help for --bare). */
const THIRD_PARTY_PROVIDER_VARIABLES = [
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'CLAUDE_CODE_USE_FOUNDRY',
]

/** What `--output-format json` prints (Claude Code 2.1.x), loose because it grows every release. */
const ClaudeResultSchema = z.looseObject({
  type: z.literal('result'),
  is_error: z.boolean(),
  result: z.string().optional(),
  stop_reason: z.string().nullish(),
  api_error_status: z.number().nullish(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      cache_creation_input_tokens: z.number().optional(),
      cache_read_input_tokens: z.number().optional(),
    })
    .optional(),
})

/** A transport that asks a `claude -p --bare` subprocess for each reply. */
export function createClaudeCliTransport(options: ClaudeCliTransportOptions = {}): ChatTransport {
  return { generate: (request) => generate(options, request) }
}

/** One reply from a fresh `claude -p` child. */
async function generate(
  options: ClaudeCliTransportOptions,
  request: ChatRequest,
): Promise<ChatResponse> {
  const parentEnv = options.env ?? {}
  const binary = firstSetting(options.binary, parentEnv.SOMNUS_CLAUDE_BIN) ?? 'claude'
  const apiKey = firstSetting(options.apiKey, parentEnv.ANTHROPIC_API_KEY)
  const thirdParty = THIRD_PARTY_PROVIDER_VARIABLES.some((name) => firstSetting(parentEnv[name]))
  // `--bare` signs in only with an API key (or a third-party provider's own credentials); a user
  // logged in to Claude Code has neither, and their child runs as their interactive sessions do.
  const bare = apiKey !== undefined || thirdParty
  const env: Record<string, string | undefined> = {
    ...parentEnv,
    [SKIP_HOOKS_VARIABLE]: SKIP_HOOKS_VALUE,
    ...(bare ? {} : { CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1', CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' }),
    ANTHROPIC_API_KEY: apiKey,
    ANTHROPIC_BASE_URL: firstSetting(options.baseUrl, parentEnv.ANTHROPIC_BASE_URL),
    // Claude Code has no --max-tokens flag; this variable becomes the request's max_tokens.
    CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(request.maxTokens),
    CLAUDE_CODE_MAX_RETRIES:
      firstSetting(parentEnv.CLAUDE_CODE_MAX_RETRIES) ??
      String(options.maxRetries ?? DEFAULT_MAX_RETRIES),
  }
  const args = [
    '-p',
    ...(bare ? ['--bare'] : ['--strict-mcp-config']),
    '--output-format',
    'json',
    '--system-prompt',
    request.system,
    // No tools: a consolidation answer is one turn of text, never an agent loop.
    '--tools',
    '',
    '--no-session-persistence',
    ...(options.model ? ['--model', options.model] : []),
  ]
  throwIfAborted(request.signal, 'claude-cli')
  const run = await runChild(options, binary, args, env, request.prompt, request.signal)
  const scrub = (text: string) => redactSecrets(text, [apiKey])
  return readResult(run, binary, scrub, bare)
}

interface ChildRun {
  code: number | null
  stdout: string
  stderr: string
}

function runChild(
  options: ClaudeCliTransportOptions,
  binary: string,
  args: string[],
  env: Record<string, string | undefined>,
  input: string,
  signal: AbortSignal | undefined,
): Promise<ChildRun> {
  const spawn = options.spawn ?? defaultSpawn
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  return new Promise<ChildRun>((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    let settled = false
    const settle = (action: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      action()
    }
    const stop = () => {
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref()
    }
    const child = spawn(binary, args, { env, cwd: options.cwd })
    // The caller gave up: the child must not keep running (and billing) behind its back.
    const onAbort = () => {
      stop()
      if (signal !== undefined) settle(() => reject(abortedError('claude-cli', signal)))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const timer = setTimeout(() => {
      stop()
      settle(() =>
        reject(
          new SomnusError(
            'MODEL_UNREACHABLE',
            `claude-cli: ${binary} gave no answer within ${timeoutMs} ms and was stopped. Check that it can reach its API (ANTHROPIC_BASE_URL), or raise the timeout.`,
            { details: { binary, timedOut: true } },
          ),
        ),
      )
    }, timeoutMs)
    child.stdout?.setEncoding('utf8')
    child.stderr?.setEncoding('utf8')
    child.stdout?.on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk
    })
    child.on('error', (error) => settle(() => reject(spawnError(binary, error))))
    child.on('close', (code) => settle(() => resolve({ code, stdout, stderr })))
    // A child that exits before reading its stdin makes the write fail with EPIPE; the exit code
    // and output then tell the real story, so this error is only noted, never thrown.
    child.stdin?.on('error', () => {})
    child.stdin?.end(input)
  })
}

function readResult(run: ChildRun, binary: string, scrub: (text: string) => string, bare: boolean) {
  const parsed = parseResultLine(run.stdout)
  if (parsed === undefined) {
    const said = (run.stderr.trim() || run.stdout.trim() || '(no output)').slice(-500)
    throw new SomnusError(
      'MODEL_FAILED',
      `claude-cli: ${binary} exited with code ${run.code} without a JSON result: ${scrub(said)}`,
      { details: { exitCode: run.code } },
    )
  }
  if (parsed.is_error || run.code !== 0) {
    const status = parsed.api_error_status
    const statusText = status ? ` (API status ${status})` : ''
    const signIn = bare
      ? ` Check the key in ANTHROPIC_API_KEY or "anthropic.api_key" in ${CONFIG_FILE_HINT}.`
      : ` Log in to Claude Code (run \`claude\`, then /login), or set ANTHROPIC_API_KEY or "anthropic.api_key" in ${CONFIG_FILE_HINT}.`
    const hint = status === 401 || status === 403 ? signIn : ''
    throw new SomnusError(
      'MODEL_FAILED',
      `claude-cli: ${binary} failed${statusText}: ${scrub(parsed.result ?? '(no message)')}.${hint}`,
      { details: { exitCode: run.code, status } },
    )
  }
  const usage = parsed.usage ?? {}
  return {
    text: parsed.result ?? '',
    usage: {
      input_tokens:
        (usage.input_tokens ?? 0) +
        (usage.cache_creation_input_tokens ?? 0) +
        (usage.cache_read_input_tokens ?? 0),
      output_tokens: usage.output_tokens ?? 0,
    },
    truncated: parsed.stop_reason === 'max_tokens',
  }
}

/** The result object: the whole output, or else its last line (older versions logged before it). */
function parseResultLine(stdout: string): z.infer<typeof ClaudeResultSchema> | undefined {
  const candidates = [stdout.trim(), stdout.trim().split('\n').at(-1) ?? '']
  for (const candidate of candidates) {
    const json = safeParseJson(candidate)
    if (!json.ok) continue
    const result = ClaudeResultSchema.safeParse(json.value)
    if (result.success) return result.data
  }
  return undefined
}

function spawnError(binary: string, error: Error): SomnusError {
  if ((error as { code?: unknown }).code === 'ENOENT') {
    return new SomnusError(
      'MODEL_CONFIG',
      `claude-cli: cannot find the Claude Code binary "${binary}". Install it (npm install -g @anthropic-ai/claude-code), or set SOMNUS_CLAUDE_BIN to its path.`,
      { cause: error },
    )
  }
  return new SomnusError(
    'MODEL_UNREACHABLE',
    `claude-cli: cannot start ${binary}: ${error.message}`,
    {
      cause: error,
    },
  )
}

const defaultSpawn: SpawnFunction = (command, args, options) => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(options.env))
    if (value !== undefined) env[name] = value
  return nodeSpawn(command, args, { env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] })
}
