/**
 * An autonomous creature's agent loop on the Anthropic Messages API, with Somnus as its sleep
 * cycle: every tool call is an action (fatigue), the model may call `set_sleep` itself. A nap (a
 * sleep that does not consolidate) only pauses: the model keeps its context. A dream (a sleep of
 * 30 s or more, 10 min after the last) replaces the context with the wake message: standing
 * orders, open priorities, the reflection, recent observations. Memory lives in `.self/`; a
 * restart picks up from it.
 *
 * Run against Anthropic (the creature runs real bash commands in its work folder):
 *   ANTHROPIC_API_KEY=... npx tsx examples/creature-loop.ts [work-folder]
 * The test (test/creature-loop.test.ts) runs it against a loopback stand-in of the API.
 */
import { execFile } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Clock, createMind, type Mind, type SleepResult } from '../src/index.ts'

/** A Messages API content block (the parts this loop uses). */
type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string }

/** A Messages API message. */
interface Message {
  role: 'user' | 'assistant'
  content: string | Block[]
}

/** How to run the loop. */
export interface CreatureLoopOptions {
  /** The folder the creature works in; its memory is `<folder>/.self`. */
  folder: string
  /** `https://api.anthropic.com` or a stand-in. */
  baseUrl: string
  apiKey: string
  model?: string
  /** Model turns before the loop stops (a real creature runs forever). */
  maxTurns?: number
  /** Waits out a sleep; the test passes one that moves its clock instead. */
  wait?: (seconds: number) => Promise<void>
  clock?: Clock
  log?: (line: string) => void
  /**
   * Consolidate with the same Messages API (the creature's model) instead of the offline
   * extractive mind; each consolidation prompt is fitted to the mind's prompt budget.
   */
  consolidateWithModel?: boolean
}

/** What the loop did. */
export interface CreatureLoopResult {
  turns: number
  actions: number
  sleeps: SleepResult[]
  wakeMessages: string[]
  mind: Mind
}

const BASH_TOOL = {
  name: 'bash',
  description: 'Run a bash command in your work folder (30 s limit). Returns its output.',
  input_schema: {
    type: 'object',
    properties: { command: { type: 'string', description: 'The command.' } },
    required: ['command'],
  },
}

function systemPrompt(mind: Mind): string {
  return [
    'You are an autonomous creature. You act with tools, one step at a time, towards your goals.',
    `Your memory is in ${mind.location}: conversation.jsonl (everything, searchable with rg), observations.md, dreams.jsonl.`,
    `You tire: after ${mind.config.fatigueWarning} actions you are told to wrap up, at ${mind.config.fatigueLimit} you fall asleep.`,
    'When a piece of work is done, call set_sleep to rest and consolidate what you learned.',
  ].join('\n')
}

/** Runs the creature for up to `maxTurns` model turns. */
export async function runCreatureLoop(options: CreatureLoopOptions): Promise<CreatureLoopResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`))
  const wait =
    options.wait ?? ((seconds) => new Promise((done) => setTimeout(done, seconds * 1000)))
  mkdirSync(options.folder, { recursive: true })
  const transport = options.consolidateWithModel
    ? (await import('../src/engine/adapters/llm/anthropic-transport.ts')).createAnthropicTransport({
        model: options.model ?? 'claude-sonnet-4-5',
        env: { ANTHROPIC_API_KEY: options.apiKey, ANTHROPIC_BASE_URL: options.baseUrl },
      })
    : undefined
  const mind = createMind({
    folder: join(options.folder, '.self'),
    location: '.self',
    ...(options.clock ? { clock: options.clock } : {}),
    ...(transport ? { transport, modelName: options.model ?? 'claude-sonnet-4-5' } : {}),
  })
  const tools = [BASH_TOOL, mind.setSleepTool]
  const sleeps: SleepResult[] = []
  const wakeMessages: string[] = []
  let actions = 0
  let messages = await startingMessages(mind)
  let turn = 0
  while (turn < (options.maxTurns ?? 50)) {
    turn += 1
    const reply = await callModel(options, { system: systemPrompt(mind), tools, messages })
    for (const block of reply.content) {
      if (block.type === 'text' && block.text.trim() !== '') {
        await mind.record({ role: 'assistant', content: block.text })
        log(`creature: ${block.text}`)
      }
    }
    messages.push({ role: 'assistant', content: reply.content })
    if (reply.stop_reason !== 'tool_use') break
    const results: Block[] = []
    let slept: SleepResult | null = null
    for (const block of reply.content) {
      if (block.type !== 'tool_use') continue
      if (block.name === 'set_sleep') {
        const sleep = await mind.setSleep(block.input)
        slept = sleep
        results.push({ type: 'tool_result', tool_use_id: block.id, content: sleep.text })
        log(`set_sleep: ${sleep.text}`)
        continue
      }
      const command = String(block.input.command ?? '')
      const output = await runBash(command, options.folder)
      actions += 1
      const action = await mind.action({ tool: 'bash', content: `$ ${command}\n${output}` })
      log(`bash: ${command} (action ${action.actions})`)
      results.push({
        type: 'tool_result',
        tool_use_id: block.id,
        content: [output, action.warning].filter(Boolean).join('\n\n'),
      })
      if (action.forcedSleep) slept = action.forcedSleep
    }
    messages.push({ role: 'user', content: results })
    // Past the emergency limit, the context becomes the mind's window: recent lines, a digest of the rest.
    if (!slept && JSON.stringify(messages).length > mind.config.maxContextChars) {
      messages = await startingMessages(mind)
    }
    if (slept) {
      sleeps.push(slept)
      await wait(slept.sleep.seconds)
      const woke = await mind.wake()
      if (slept.dream) {
        // After a dream the old context is gone: the creature starts again from its wake message.
        wakeMessages.push(woke.message)
        log(woke.message)
        messages = [{ role: 'user', content: woke.message }]
      } else {
        // A nap only paused: the context stays as it was (no wake message is added to it).
        log(`woke from a nap of ${slept.sleep.seconds} s`)
      }
    }
  }
  return { turns: turn, actions, sleeps, wakeMessages, mind }
}

/** The context after a restart: the wake message, the digest, the recent lines, rebuilt from disk. */
async function startingMessages(mind: Mind): Promise<Message[]> {
  const context = await mind.context()
  const lines = [
    context.wake,
    context.digest,
    ...context.messages.map(
      ({ entry }) => `[${entry.tool ?? entry.name ?? entry.role}] ${entry.content}`,
    ),
  ].filter((part): part is string => Boolean(part))
  return [
    {
      role: 'user',
      content:
        lines.length > 0
          ? lines.join('\n\n')
          : 'You are awake. Look around your work folder and decide what to do.',
    },
  ]
}

async function callModel(
  options: CreatureLoopOptions,
  body: { system: string; tools: unknown[]; messages: Message[] },
): Promise<{ content: Block[]; stop_reason: string }> {
  const response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': options.apiKey,
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify({
      model: options.model ?? 'claude-sonnet-4-5',
      max_tokens: 2048,
      ...body,
    }),
  })
  if (!response.ok)
    throw new Error(`Messages API answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { content: Block[]; stop_reason: string }
}

function runBash(command: string, cwd: string): Promise<string> {
  return new Promise((done) => {
    execFile(
      'bash',
      ['-c', command],
      { cwd, timeout: 30_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim().slice(0, 10_000)
        done(error ? `${output}\n(exit ${error.code ?? 'error'})`.trim() : output || '(no output)')
      },
    )
  })
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const apiKey = process.env.ANTHROPIC_API_KEY
  if (!apiKey) {
    process.stderr.write('Set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint).\n')
    process.exit(1)
  }
  await runCreatureLoop({
    folder: resolve(process.argv[2] ?? 'creature'),
    baseUrl: process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com',
    apiKey,
  })
}
