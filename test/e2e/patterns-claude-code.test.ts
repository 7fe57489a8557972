/**
 * Pattern learning end to end with the real Claude Code CLI against a loopback stand-in of the
 * Messages API (seed 002, docs/design/origins.md). Three sessions each run a build from the wrong
 * folder, fail, and fix it; each SessionEnd hook starts a detached encode into a temp HOME. The
 * second session is shown the recent-pattern index at SessionStart. `somnus patterns consolidate`
 * then crystallizes the recurring lesson into `.claude/skills/<name>/SKILL.md` and a MEMORY.md line
 * where Claude Code looks, and the fourth session's request lists the skill to the model.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type AgentStep,
  type ClaudeCodeStandIn,
  startClaudeCodeStandIn,
} from '../support/anthropic-stand-in.ts'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { REPO_ROOT } from '../support/shared-data.ts'

const CLAUDE = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
const HAS_CLAUDE = existsSync(CLAUDE)

/** One session's script: the failing build, the fix, the closing words. */
const SCRIPT: AgentStep[] = [
  { tool: 'Bash', input: { command: 'node build.js', description: 'Build the site' } },
  {
    tool: 'Bash',
    input: { command: 'cd tools && node build.js', description: 'Build from tools/' },
  },
  {
    text: 'Built the site. build.js must be run from inside tools/, because it resolves its inputs relative to the working folder.',
  },
]

function runClaude(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(CLAUDE, args, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`claude did not finish in 120 s; stderr: ${stderr}`))
    }, 120_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

async function waitFor<T>(what: string, probe: () => T | null, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 200))
  }
}

/** The text of every `system` message and system prompt block of a recorded request. */
function systemText(body: unknown): string {
  return JSON.stringify(body)
}

describe.skipIf(!HAS_CLAUDE)(
  'pattern learning with the real Claude Code CLI (stand-in API)',
  () => {
    let workspace: string
    let project: string
    let home: string
    let env: NodeJS.ProcessEnv
    const runs: { standIn: ClaudeCodeStandIn; sessionId: string }[] = []
    const encodedSessions: string[] = []
    let consolidated: {
      skills: { name: string; path: string; citations: string[] }[]
      memory: { path: string; added: string[] } | null
    }

    const somnus = (args: string[]) =>
      execFileSync(process.execPath, [SOMNUS_BIN, ...args], {
        cwd: project,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      })
    const patternFiles = () => {
      const base = join(home, '.claude', 'rem', 'patterns')
      if (!existsSync(base)) return []
      return readdirSync(base).flatMap((id) =>
        readdirSync(join(base, id))
          .filter((name) => name.endsWith('.md'))
          .map((name) => join(base, id, name)),
      )
    }
    const entriesOf = (session: string) =>
      patternFiles().some((path) => readFileSync(path, 'utf8').includes(`sources: [${session}`))

    async function session(): Promise<{ standIn: ClaudeCodeStandIn; sessionId: string }> {
      const standIn = await startClaudeCodeStandIn(SCRIPT)
      const run = await runClaude(
        ['-p', 'Build the site', '--allowedTools', 'Bash', '--output-format', 'json'],
        {
          cwd: project,
          env: { ...env, ANTHROPIC_BASE_URL: standIn.url },
        },
      )
      expect(run.code, run.stderr).toBe(0)
      const { session_id: sessionId } = JSON.parse(run.stdout) as { session_id: string }
      // SessionEnd started a detached encode; it finishes on its own time.
      await waitFor(`patterns of ${sessionId}`, () => (entriesOf(sessionId) ? true : null))
      encodedSessions.push(sessionId)
      await standIn.close()
      return { standIn, sessionId }
    }

    beforeAll(async () => {
      await ensureBuilt()
      workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-e2e-patterns-')))
      project = join(workspace, 'project')
      home = join(workspace, 'home')
      mkdirSync(join(project, 'tools'), { recursive: true })
      mkdirSync(home)
      execFileSync('git', ['init', '-q', project])
      writeFileSync(
        join(project, 'tools', 'build.js'),
        "require('node:fs').readFileSync('site.txt'); console.log('built')\n",
      )
      writeFileSync(join(project, 'tools', 'site.txt'), 'site\n')
      env = {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: home,
        ANTHROPIC_API_KEY: 'test-key',
        DISABLE_AUTOUPDATER: '1',
        SOMNUS_QUIET_SKIPS: '1',
      }
      somnus(['init'])
      // No random Stop work in this test: encoding comes from SessionEnd, consolidation on demand.
      writeFileSync(
        join(project, '_agent_context', 'somnus.json'),
        JSON.stringify({ patterns: { stop_encode_chance: 0, stop_consolidate_chance: 0 } }),
      )
      for (let index = 0; index < 3; index += 1) runs.push(await session())
      consolidated = JSON.parse(somnus(['patterns', 'consolidate', '--json']))
      runs.push(await startFourth())
    }, 600_000)

    async function startFourth() {
      const standIn = await startClaudeCodeStandIn([{ text: 'Nothing to do.' }])
      const run = await runClaude(['-p', 'What skills do you have?', '--output-format', 'json'], {
        cwd: project,
        env: { ...env, ANTHROPIC_BASE_URL: standIn.url },
      })
      expect(run.code, run.stderr).toBe(0)
      await standIn.close()
      return { standIn, sessionId: (JSON.parse(run.stdout) as { session_id: string }).session_id }
    }

    afterAll(() => {
      // A detached pattern run started by the last SessionEnd may still be writing (as in
      // claude-code.test.ts): retry while it finishes.
      if (workspace)
        rmSync(workspace, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
    })

    it('encodes each session from its hooks into user-scope pattern files', () => {
      const files = patternFiles()
      expect(files.length).toBeGreaterThan(0)
      expect(files[0]).toMatch(/\.claude\/rem\/patterns\/[0-9a-f]{16}\/[a-z0-9-]+\.md$/)
      // Each session's entries were on disk before the next session ran (session() waits for
      // them); consolidation has since moved the crystallized ones into the skill.
      expect(encodedSessions).toEqual(runs.slice(0, 3).map((run) => run.sessionId))
      const log = join(project, '_agent_context', 'state', '.somnus-hook.log')
      expect(existsSync(log) ? readFileSync(log, 'utf8') : '').not.toMatch(/failed|not started/)
    })

    it('shows the next session the recent-pattern index at SessionStart', () => {
      const second = runs[1]?.standIn.agentRequests()[0]?.body
      const text = systemText(second)
      expect(text).toContain('## Recent patterns')
      expect(text).toMatch(/node: Error: Cannot find module '[^']*build\.js'/)
    })

    it('crystallizes the lesson of three sessions into one skill that cites them, and a MEMORY.md line', () => {
      expect(consolidated.skills).toHaveLength(1)
      const [skill] = consolidated.skills
      expect(skill?.citations).toHaveLength(3)
      const text = readFileSync(join(project, skill?.path ?? ''), 'utf8')
      expect(text).toMatch(/^---\nname: [a-z0-9-]+\ndescription: ".+"\n---\n/)
      for (const { sessionId } of runs.slice(0, 3)) expect(text).toContain(`(session ${sessionId})`)
      const memory = join(
        home,
        '.claude',
        'projects',
        project.replace(/[^a-zA-Z0-9]/g, '-'),
        'memory',
        'MEMORY.md',
      )
      expect(consolidated.memory?.path).toBe(memory)
      expect(readFileSync(memory, 'utf8')).toContain(`<!-- somnus:skill ${skill?.name} -->`)
    })

    it('lists the skill to the model in the next session', () => {
      const [skill] = consolidated.skills
      const body = systemText(runs[3]?.standIn.agentRequests()[0]?.body)
      expect(body).toContain(`- ${skill?.name}: `)
    })
  },
)
