/**
 * Issue 18, item 5: every way text enters Somnus, with the whole secret corpus planted in it, on
 * the built CLI, hooks and MCP server: a transcript (prompt, tool output, assistant text, a file
 * name, a tool name), a closing message, task names, logs and tags, a knowledge note, a changelog
 * line, a bookmark, a trigger, `summarize` input, a recall query. No corpus value may appear in
 * any file under the project or the home folder, in anything printed, in an MCP tool result, in
 * the prompt hook's output, or in a request body sent to a model (a loopback capture server).
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnthropicMessagesStandIn } from '../support/anthropic-messages-stand-in.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace, stopPayload } from '../support/hook-workspace.ts'
import { ALL_SECRETS_TEXT, SECRET_SAMPLES } from '../support/secret-corpus.ts'
import type { StandInServer } from '../support/stand-in-server.ts'
import {
  assistant,
  setTranscriptClock,
  text,
  toolResult,
  toolUse,
  user,
} from '../support/transcript-lines.ts'

interface Run {
  step: string
  code: number | null
  printed: string
}

function somnus(
  ws: HookWorkspace,
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOMNUS_BIN, ...args], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let printed = ''
    child.stdout.on('data', (chunk) => {
      printed += chunk
    })
    child.stderr.on('data', (chunk) => {
      printed += chunk
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(stdin)
    child.on('error', reject)
    child.on('close', (code) => resolve({ step: args.slice(0, 2).join(' '), code, printed }))
  })
}

/** Every file under `folder`, recursively, with its text. */
function filesUnder(folder: string): Array<{ path: string; text: string }> {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name)
      return { path, text: readFileSync(path, 'utf8') }
    })
}

/** The corpus values `text` still holds, by sample name (in any case: a slug lowers it). */
function leaks(text: string): string[] {
  const lower = text.toLowerCase()
  return SECRET_SAMPLES.filter((sample) => lower.includes(sample.secret.toLowerCase())).map(
    (sample) => sample.name,
  )
}

// A wrapped token is whole only with its line break: joined by ` ; ` its second half is no secret.
const ONE_LINE = SECRET_SAMPLES.filter((sample) => !sample.wrapped)
  .map((sample) => sample.text)
  .join('\n')
  .replace(/\n/g, ' ; ')
const first = SECRET_SAMPLES[0]?.secret ?? ''

/** A session that carries the corpus in every part a transcript has. */
function corpusTranscript(): string {
  setTranscriptClock('2026-03-01T10:00:00.000Z')
  return [
    user(`Configure the deploy credentials:\n${ALL_SECRETS_TEXT}`, { uuid: 'u-1' }),
    assistant(
      'm1',
      [toolUse('t1', 'Bash', { command: `deploy --env "${ONE_LINE}"` })],
      {},
      { uuid: 'a-1' },
    ),
    toolResult('t1', `Exit code 1\n${ALL_SECRETS_TEXT}`, true).replace(
      '"uuid":"u"',
      '"uuid":"u-2"',
    ),
    assistant(
      'm2',
      [toolUse('t2', 'Write', { file_path: `/p/keys-${first}.env`, content: ALL_SECRETS_TEXT })],
      {},
      { uuid: 'a-2' },
    ),
    toolResult('t2', 'ok').replace('"uuid":"u"', '"uuid":"u-3"'),
    assistant('m3', [toolUse('t3', `mcp__vault__${first}`, { q: first })], {}, { uuid: 'a-3' }),
    toolResult('t3', ALL_SECRETS_TEXT).replace('"uuid":"u"', '"uuid":"u-4"'),
    assistant(
      'm4',
      [text(`We always deploy with these credentials from now on:\n${ALL_SECRETS_TEXT}`)],
      {},
      { uuid: 'a-4' },
    ),
    '',
  ].join('\n')
}

describe('no corpus secret leaves by any path (built CLI, hooks, MCP, model requests)', () => {
  let ws: HookWorkspace
  let model: StandInServer
  const runs: Run[] = []
  const mcpTexts: string[] = []

  beforeAll(async () => {
    await ensureBuilt()
    ws = createHookWorkspace()
    model = await startAnthropicMessagesStandIn(() => ({ text: 'Deploys need the VPN.' }))
    const modelEnv = {
      SOMNUS_MODEL: 'anthropic:claude-stand-in',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'stand-in-key-0123456789',
    }
    const transcript = join(ws.transcripts, 'corpus-session.jsonl')
    writeFileSync(transcript, corpusTranscript())
    const prompt = (words: string) =>
      JSON.stringify({
        session_id: 'corpus-session',
        cwd: ws.project,
        hook_event_name: 'UserPromptSubmit',
        prompt: words,
      })
    const steps: Array<[string[], string?, Record<string, string>?]> = [
      [['tasks', 'create', `rotate ${first}`, '--why', ONE_LINE, '--tags', `deploy,${first}`]],
      [['tasks', 'list', '--json']],
      [
        [
          'knowledge',
          'create',
          'deploy-credentials',
          '--title',
          ONE_LINE,
          '--summary',
          ONE_LINE,
          '--tags',
          first,
          '--body',
          ALL_SECRETS_TEXT,
        ],
      ],
      [['core', 'changelog', 'add', ALL_SECRETS_TEXT]],
      [['bookmark', 'add', '-s', '3', ALL_SECRETS_TEXT]],
      [['trigger', 'add', 'deploy', ONE_LINE]],
      [['summarize'], ALL_SECRETS_TEXT],
      [['summarize'], ALL_SECRETS_TEXT, modelEnv],
      [['transcript', 'distill', transcript, '--full']],
      [
        ['hook', 'stop'],
        JSON.stringify(stopPayload(ws, 'corpus-session', transcript, ALL_SECRETS_TEXT)),
      ],
      [['hook', 'user-prompt-submit'], prompt('which deploy credentials do we use?')],
      [['recall', 'deploy credentials']],
      [['recall', 'deploy credentials', '--json']],
      [['sleep', 'run'], '', modelEnv],
      [['sleep', 'run']],
      [['hook', 'session-start'], JSON.stringify({ session_id: 'next', cwd: ws.project })],
      [['hook', 'user-prompt-submit'], prompt('which deploy credentials do we use?')],
      [['snapshot']],
      [['recall', 'deploy credentials']],
    ]
    for (const [args, stdin, env] of steps) {
      runs.push(await somnus(ws, args, stdin, env))
      if (args[1] !== 'create' || args[0] !== 'tasks') continue
      // The slug is made from the name: it must not hold the secret either (checked below).
      const slug = (
        readdirSync(join(ws.root, 'state')).find((name) => name.startsWith('rotate')) ?? ''
      ).replace(/\.md$/, '')
      runs.push(await somnus(ws, ['tasks', 'log', slug, ALL_SECRETS_TEXT]))
      runs.push(await somnus(ws, ['tasks', 'complete', slug, ALL_SECRETS_TEXT]))
    }

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SOMNUS_BIN, 'mcp'],
      cwd: ws.project,
      env: { PATH: process.env.PATH ?? '', HOME: ws.home },
      stderr: 'pipe',
    })
    const client = new Client({ name: 'somnus-test', version: '1.0.0' })
    await client.connect(transport)
    for (const [name, args] of [
      ['recall', { query: 'deploy credentials' }],
      ['recall', { query: 'configure the deploy credentials' }],
      ['bookmark', { message: ALL_SECRETS_TEXT, salience: 2 }],
      ['sleep_status', {}],
    ] as const) {
      const result = (await client.callTool({ name, arguments: args })) as {
        content: { text?: string }[]
      }
      mcpTexts.push(JSON.stringify(result))
    }
    await client.close()
  }, 300_000)

  afterAll(async () => {
    await model?.close()
    ws?.dispose()
  })

  it('every step ran', () => {
    for (const run of runs.filter((run) => run.step !== 'sleep run' && run.step !== 'summarize'))
      expect({ step: run.step, code: run.code }).toEqual({ step: run.step, code: 0 })
    expect(runs.find((run) => run.step === 'recall deploy credentials')?.printed).toContain(
      '[redacted: ',
    )
  })

  it('prints no corpus value: stdout, stderr, hook output', () => {
    const found = runs.map((run) => ({ step: run.step, leaks: leaks(run.printed) }))
    expect(found.filter((run) => run.leaks.length > 0)).toEqual([])
  })

  it('writes no corpus value to any file: the brain, CLAUDE.md, skills, ~/.somnus, ~/.claude', () => {
    const files = [...filesUnder(ws.project), ...filesUnder(ws.home)].filter(
      // The planted transcript is the input, not something Somnus wrote.
      (file) => !file.path.endsWith('corpus-session.jsonl'),
    )
    expect(files.length).toBeGreaterThan(10)
    const found = files.map((file) => ({
      path: file.path,
      leaks: leaks(`${file.path}\n${file.text}`),
    }))
    expect(found.filter((file) => file.leaks.length > 0)).toEqual([])
  })

  it('answers no MCP tool call with a corpus value', () => {
    expect(mcpTexts.length).toBe(4)
    for (const result of mcpTexts) expect(leaks(result)).toEqual([])
  })

  it('sends no corpus value to a model', () => {
    expect(model.requests.length).toBeGreaterThan(0)
    const found = model.requests.map((request) => ({
      path: request.path,
      leaks: leaks(request.rawBody),
    }))
    expect(found.filter((request) => request.leaks.length > 0)).toEqual([])
  })
})
