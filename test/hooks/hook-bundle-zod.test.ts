/**
 * The built hook keeps zod out of its bundle (scripts/bundle-hook.mjs): every event's usual work
 * must run without loading it, and the slow path that needs it (a payload the hand check cannot
 * vouch for) must still find it in node_modules and word the problem.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, HOOK_ENTRY, SOMNUS_BIN } from '../support/build-once.ts'
import { removeTemporary } from '../support/remove-temporary.ts'

/** Preloaded into the hook process: at exit, prints how many zod files it loaded. */
const PROBE = `process.on('exit', () => {
  const zod = Object.keys(require.cache).filter((path) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(path))
  require('node:fs').writeSync(2, '\\nzod files loaded: ' + zod.length + '\\n')
})`

interface Project {
  dir: string
  project: string
  transcript: string
  probe: string
}

const made: string[] = []

function createProject(): Project {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-hook-zod-')))
  made.push(dir)
  const project = join(dir, 'project')
  mkdirSync(project)
  execFileSync(process.execPath, [SOMNUS_BIN, 'init', project, '--plugin'], { stdio: 'pipe' })
  const transcript = join(dir, 'session.jsonl')
  const line = (record: object) => `${JSON.stringify(record)}\n`
  writeFileSync(
    transcript,
    line({ type: 'user', message: { role: 'user', content: 'Add a health check endpoint.' } }) +
      line({
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: 'src/health.ts' } },
          ],
        },
      }),
  )
  // A sub-agent with Claude Code's metadata file: the Stop hook reads its type.
  const subagents = join(dir, 'session', 'subagents')
  mkdirSync(subagents, { recursive: true })
  writeFileSync(
    join(subagents, 'agent-a1.jsonl'),
    line({ type: 'user', message: { role: 'user', content: 'Look for the route table.' } }),
  )
  writeFileSync(join(subagents, 'agent-a1.meta.json'), JSON.stringify({ agentType: 'Explore' }))
  const probe = join(dir, 'probe.cjs')
  writeFileSync(probe, PROBE)
  return { dir, project, transcript, probe }
}

/** Runs a hook as Claude Code does, preloading the probe; its stdout and the zod files it loaded. */
function hook(project: Project, event: string, payload: object): { stdout: string; zod: number } {
  const run = spawnSync(process.execPath, ['-r', project.probe, HOOK_ENTRY, event], {
    cwd: project.project,
    input: JSON.stringify({ cwd: project.project, ...payload }),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: project.dir,
      SOMNUS_PATTERNS_DIR: join(project.dir, 'patterns'),
    },
  })
  expect(run.status, run.stderr).toBe(0)
  const loaded = /zod files loaded: (\d+)/.exec(run.stderr)
  expect(loaded, run.stderr).not.toBeNull()
  return { stdout: run.stdout, zod: Number(loaded?.[1]) }
}

const ledgerOf = (project: Project) =>
  JSON.parse(readFileSync(join(project.project, '_agent_context/state/.sleep.json'), 'utf8'))

describe('the built hook and zod', () => {
  beforeAll(() => ensureBuilt(), 300_000)
  afterAll(async () => {
    // The CLI may still be writing its code cache in the test home.
    for (const dir of made) await removeTemporary(dir)
  }, 30_000)

  it('is built without zod, which it requires where somnus is installed', () => {
    const bundle = readFileSync(join(dirname(HOOK_ENTRY), 'hook-bundle.cjs'), 'utf8')
    expect(bundle).toContain('require("zod/mini")')
    // zod names each of its schema classes with a string; none may be in the bundle.
    expect(bundle).not.toContain('"$ZodType"')
  })

  it("runs every event's usual work without loading zod", () => {
    const project = createProject()
    const session = { session_id: 'session-1', transcript_path: project.transcript }
    const start = hook(project, 'session-start', {
      ...session,
      hook_event_name: 'SessionStart',
      source: 'startup',
    })
    expect(start.stdout).toContain('Somnus')
    expect(start.zod).toBe(0)
    const prompt = hook(project, 'user-prompt-submit', {
      ...session,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'go on',
    })
    expect(prompt.zod).toBe(0)
    const stop = hook(project, 'stop', {
      ...session,
      hook_event_name: 'Stop',
      stop_hook_active: false,
    })
    expect(stop.zod).toBe(0)
    const recorded = ledgerOf(project).sessions.find(
      (entry: { session_id: string }) => entry.session_id === 'session-1',
    )
    expect(recorded?.change_count).toBe(1)
    expect(
      hook(project, 'pre-compact', { ...session, hook_event_name: 'PreCompact', trigger: 'auto' })
        .zod,
    ).toBe(0)
    expect(
      hook(project, 'session-end', { ...session, hook_event_name: 'SessionEnd', reason: 'exit' })
        .zod,
    ).toBe(0)
    // A second SessionStart shows the recorded session, still without zod.
    expect(
      hook(project, 'session-start', {
        ...session,
        hook_event_name: 'SessionStart',
        source: 'resume',
      }).zod,
    ).toBe(0)
  })

  it('loads zod from node_modules to word a payload the hand check cannot vouch for', () => {
    const project = createProject()
    const run = hook(project, 'stop', { session_id: 42, hook_event_name: 'Stop' })
    expect(run.zod).toBeGreaterThan(0)
    const log = readFileSync(join(project.project, '_agent_context/state/.somnus-hook.log'), 'utf8')
    expect(log).toMatch(/stop stdin field "session_id": .+/)
    expect(ledgerOf(project).sessions).toEqual([])
  })
})
