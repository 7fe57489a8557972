/**
 * Issue 13, item 2, on real processes: a session whose transcript, closing message, bookmark and
 * trigger hold secrets goes through the built Stop and SessionStart hooks, `snapshot`,
 * `transcript distill`, `sleep run` and the listing commands. No secret may appear in any file of
 * the brain or in anything printed; the markers must.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace, stopPayload } from '../support/hook-workspace.ts'
import { ALL_SECRETS_TEXT, SECRET_SAMPLES } from '../support/secret-corpus.ts'
import { assistant, setTranscriptClock, text, toolUse, user } from '../support/transcript-lines.ts'

interface Run {
  args: string[]
  code: number | null
  stdout: string
  stderr: string
}

/** `node bin/somnus.js <args>` in the workspace's project, `stdin` piped in. */
function somnus(ws: HookWorkspace, args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOMNUS_BIN, ...args], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(stdin)
    child.on('error', reject)
    child.on('close', (code) => resolve({ args, code, stdout, stderr }))
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

const SESSION = 'secret-session'
const githubSample = SECRET_SAMPLES.find((sample) => sample.name === 'GitHub classic token')
const passwordSample = SECRET_SAMPLES.find((sample) => sample.name === 'password in prose')
const jwtSample = SECRET_SAMPLES.find((sample) => sample.name === 'JWT')

/** A Claude Code session: the user pastes every secret, a tool prints them, a file gets one. */
function secretTranscript(): string {
  setTranscriptClock('2026-02-28T10:00:00.000Z')
  return [
    user(`We decided to configure deploys with these credentials:\n${ALL_SECRETS_TEXT}`, {
      uuid: 'u-prompt',
    }),
    assistant(
      'm1',
      [toolUse('t-env', 'Bash', { command: 'cat .env && npm run deploy' })],
      {},
      {
        uuid: 'a-call',
      },
    ),
    user(
      [
        {
          tool_use_id: 't-env',
          type: 'tool_result',
          content: `deploy failed with this environment:\n${ALL_SECRETS_TEXT}`,
          is_error: true,
        },
      ],
      { uuid: 'u-result', toolUseResult: { stdout: '', stderr: ALL_SECRETS_TEXT } },
    ),
    assistant(
      'm2',
      [toolUse('t-write', 'Write', { file_path: '/p/.env', content: ALL_SECRETS_TEXT })],
      {},
      { uuid: 'a-write' },
    ),
    user([{ tool_use_id: 't-write', type: 'tool_result', content: 'ok' }], { uuid: 'u-ok' }),
    assistant(
      'm3',
      [text(`We always deploy with the GitHub token ${githubSample?.secret} from now on.`)],
      {},
      { uuid: 'a-final' },
    ),
    '',
  ].join('\n')
}

describe('secrets never leave a transcript or a bookmark (built CLI and hooks)', () => {
  let ws: HookWorkspace
  const runs: Run[] = []

  beforeAll(async () => {
    await ensureBuilt()
    ws = createHookWorkspace()
    const transcript = join(ws.transcripts, `${SESSION}.jsonl`)
    writeFileSync(transcript, secretTranscript())
    const closing = `Deployed. ${passwordSample?.text} and ${jwtSample?.text}`
    const steps: Array<[string[], string?]> = [
      [['hook', 'stop'], JSON.stringify(stopPayload(ws, SESSION, transcript, closing))],
      [['bookmark', 'add', '-s', '3', `Rotate the key: ${githubSample?.text}`]],
      [['trigger', 'add', 'deploy', `use ${passwordSample?.text}`]],
      [['hook', 'session-start'], JSON.stringify({ session_id: 'next', cwd: ws.project })],
      [['snapshot']],
      [['bookmark', 'list']],
      [['trigger', 'list']],
      [['sleep', 'status']],
      [['transcript', 'distill', transcript, '--full']],
      [['transcript', 'distill', transcript]],
      [['sleep', 'run']],
      [['snapshot']],
    ]
    for (const [args, stdin] of steps) runs.push(await somnus(ws, args, stdin))
  }, 180_000)

  afterAll(() => ws?.dispose())

  it('runs every step without an error', () => {
    for (const run of runs) {
      expect({ args: run.args, code: run.code }).toEqual({ args: run.args, code: 0 })
      expect(run.stderr).not.toMatch(/error/i)
    }
  })

  it('prints no secret on any stdout or stderr', () => {
    for (const run of runs) {
      for (const sample of SECRET_SAMPLES) {
        // The command's own arguments hold secrets on purpose; only what it printed counts.
        const command = run.args.slice(0, 2).join(' ')
        expect(`${command}: ${run.stdout}${run.stderr}`).not.toContain(sample.secret)
      }
    }
  })

  it('writes no secret to any file of the brain', () => {
    for (const file of filesUnder(ws.root)) {
      for (const sample of SECRET_SAMPLES) {
        expect(`${file.path}: ${file.text}`).not.toContain(sample.secret)
      }
    }
  })

  it('leaves markers where the secrets were', () => {
    const printed = (command: string) =>
      runs.filter((run) => run.args.join(' ').startsWith(command)).map((run) => run.stdout)
    expect(printed('transcript distill').join('\n')).toContain('[redacted: github token]')
    expect(printed('transcript distill').join('\n')).toContain('[redacted: private key]')
    expect(printed('bookmark list').join('\n')).toContain('[redacted: github token]')
    expect(printed('hook session-start').join('\n')).toContain('[redacted: github token]')
    const ledger = readFileSync(ws.ledgerPath, 'utf8')
    expect(ledger).toContain('[redacted: password]')
    const memory = filesUnder(join(ws.root, 'core'))
      .map((file) => file.text)
      .join('\n')
    expect(memory).toContain('[redacted: ')
  })
})
