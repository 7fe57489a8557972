/**
 * A brain built from the three real dev sessions as a user gets it: `somnus init`, each session
 * through the Stop hook (`node dist/hook.cjs stop`, real stdin JSON), `somnus sleep run`
 * (offline), and the transcripts where Claude Code keeps them
 * (`$HOME/.claude/projects/<sanitized project>/`), so recall finds them as it would on a real
 * machine. Shared by the recall benchmarks.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOOK_ENTRY, SOMNUS_BIN } from '../../test/support/build-once.ts'

/** The dataset's three big real sessions. */
export const REAL_SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]

/** A project with its brain and a home of its own. */
export interface RecallBrain {
  project: string
  home: string
  env: Record<string, string | undefined>
}

/** Runs the CLI or hook entry `command` with `env` in `cwd`; throws on a non-zero exit. */
export function run(
  command: string[],
  options: { cwd: string; env: Record<string, string | undefined>; input?: string },
) {
  const result = spawnSync(process.execPath, command, {
    cwd: options.cwd,
    env: options.env,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0)
    throw new Error(`${command.join(' ')} exited ${result.status}: ${result.stderr}`)
  return result
}

/** Claude Code's folder name for `path` (every character but letters and digits becomes `-`). */
export function claudeProjectFolder(home: string, project: string): string {
  return join(home, '.claude', 'projects', realpathSync(project).replace(/[^a-zA-Z0-9]/g, '-'))
}

/** Builds the brain of the real sessions in `dataset`. */
export function buildRecallBrain(dataset: string): RecallBrain {
  const home = mkdtempSync(join(tmpdir(), 'somnus-recall-home-'))
  const project = mkdtempSync(join(tmpdir(), 'somnus-recall-'))
  const env = { PATH: process.env.PATH, HOME: home }
  run([SOMNUS_BIN, 'init', project], { cwd: project, env })
  writeFileSync(
    join(project, '_agent_context', 'somnus.json'),
    `${JSON.stringify({ patterns: { enabled: false } })}\n`,
  )
  const transcripts = claudeProjectFolder(home, project)
  mkdirSync(transcripts, { recursive: true })
  for (const id of REAL_SESSIONS) {
    cpSync(join(dataset, `${id}.jsonl`), join(transcripts, `${id}.jsonl`))
    cpSync(join(dataset, id), join(transcripts, id), { recursive: true })
    const payload = {
      session_id: id,
      transcript_path: join(transcripts, `${id}.jsonl`),
      cwd: project,
      hook_event_name: 'Stop',
      stop_hook_active: false,
      last_assistant_message: closingMessage(join(transcripts, `${id}.jsonl`)),
    }
    run([HOOK_ENTRY, 'stop'], { cwd: project, env, input: JSON.stringify(payload) })
  }
  run([SOMNUS_BIN, 'sleep', 'run'], { cwd: project, env })
  return { project, home, env }
}

function closingMessage(path: string): string {
  const lines = readFileSync(path, 'utf8').trim().split('\n').reverse()
  for (const line of lines) {
    const record = JSON.parse(line) as { type?: string; message?: { content?: unknown } }
    if (record.type !== 'assistant' || !Array.isArray(record.message?.content)) continue
    const text = (record.message.content as { type: string; text?: string }[]).find(
      (block) => block.type === 'text',
    )?.text
    if (text) return text
  }
  return ''
}
