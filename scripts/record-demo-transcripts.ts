/**
 * Records the transcripts `somnus demo` replays: three short sessions of the real Claude Code CLI
 * (the version in node_modules) against the loopback model stand-in, written by Claude Code itself.
 * Run with `npx tsx scripts/record-demo-transcripts.ts`; it rewrites templates/demo/.
 */
import { spawn } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type AgentStep, startClaudeCodeStandIn } from '../test/support/anthropic-stand-in.ts'
import { REPO_ROOT } from '../test/support/shared-data.ts'

const CLAUDE = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe')
const DEMO_DIR = join(REPO_ROOT, 'templates/demo')
/** The project path the recorded transcripts show, instead of a temp folder. */
const SHOWN_PROJECT = '/home/demo/acme-api'

const SESSIONS: { prompt: string; steps: (project: string) => AgentStep[] }[] = [
  {
    prompt:
      'Add a /health endpoint to the API. I prefer small focused modules, and I always want a test next to every new endpoint.',
    steps: (project) => [
      {
        tool: 'Write',
        input: {
          file_path: `${project}/src/health.ts`,
          content:
            "export const health = () => ({ status: 'ok', uptime: process.uptime() * 1000 })\n",
        },
      },
      {
        tool: 'Write',
        input: {
          file_path: `${project}/src/health.test.ts`,
          content: "import { health } from './health'\n// status must be ok\n",
        },
      },
      { tool: 'Bash', input: { command: 'ls src', description: 'List the sources' } },
      { tool: 'Read', input: { file_path: `${project}/src/health.ts` } },
      {
        tool: 'Edit',
        input: {
          file_path: `${project}/src/health.ts`,
          old_string: 'process.uptime() * 1000',
          new_string: 'Math.round(process.uptime())',
        },
      },
      { tool: 'Bash', input: { command: 'cat src/health.ts', description: 'Show the endpoint' } },
      {
        text: 'Added GET /health in src/health.ts with a test beside it. Decided to return uptime in whole seconds instead of milliseconds, so dashboards can graph it directly. When adding endpoints, register them in src/routes.ts first.',
      },
    ],
  },
  {
    prompt: 'The login test fails with a timeout on CI. Fix it.',
    steps: (project) => [
      {
        tool: 'Write',
        input: {
          file_path: `${project}/src/login.ts`,
          content: 'export const REFRESH_TIMEOUT_MS = 5000\n',
        },
      },
      {
        tool: 'Bash',
        input: { command: 'grep -n TIMEOUT src/login.ts', description: 'Find the timeout' },
      },
      { tool: 'Read', input: { file_path: `${project}/src/login.ts` } },
      {
        tool: 'Edit',
        input: { file_path: `${project}/src/login.ts`, old_string: '5000', new_string: '15000' },
      },
      {
        tool: 'Bash',
        input: { command: 'echo "login test: pass"', description: 'Run the login test' },
      },
      {
        text: 'Fixed the flaky login test: the token refresh waited 5 s, which the slower CI runner exceeded, so I raised it to 15 s. Known issue: CI machines are about 3x slower than laptops, so timing-based tests need headroom.',
      },
    ],
  },
  {
    prompt:
      'Write a short design note on caching for the API. The deadline for caching is 2026-12-15.',
    steps: (project) => [
      {
        tool: 'Write',
        input: {
          file_path: `${project}/docs/caching.md`,
          content:
            '# Caching\n\nRedis, shared by the 3 API replicas. Keys expire after 5 minutes.\n',
        },
      },
      { tool: 'Bash', input: { command: 'wc -l docs/caching.md', description: 'Count lines' } },
      {
        text: 'Wrote docs/caching.md. We chose Redis over an in-process cache because the API runs as 3 replicas behind the load balancer. The caching work is due on 2026-12-15.',
      },
    ],
  },
]

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-record-')))
const project = join(workspace, 'acme-api')
const home = join(workspace, 'home')
mkdirSync(join(project, 'src'), { recursive: true })
mkdirSync(join(project, 'docs'), { recursive: true })
mkdirSync(home)
mkdirSync(DEMO_DIR, { recursive: true })

for (const [index, session] of SESSIONS.entries()) {
  const standIn = await startClaudeCodeStandIn(session.steps(project))
  // Asynchronous on purpose: the stand-in answers from this same process.
  const run = await runClaude(
    ['-p', session.prompt, '--allowedTools', 'Write Edit Bash Read', '--output-format', 'json'],
    {
      cwd: project,
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: home,
        ANTHROPIC_BASE_URL: standIn.url,
        ANTHROPIC_API_KEY: 'demo-key',
        DISABLE_AUTOUPDATER: '1',
      },
    },
  )
  await standIn.close()
  if (run.status !== 0) throw new Error(`claude failed (${run.status}): ${run.stderr}`)
  const { session_id: sessionId } = JSON.parse(run.stdout) as { session_id: string }
  const projects = join(home, '.claude/projects')
  const folder = readdirSync(projects).find((name) =>
    readdirSync(join(projects, name)).includes(`${sessionId}.jsonl`),
  )
  if (!folder) throw new Error(`no transcript for ${sessionId}`)
  const text = readFileSync(join(projects, folder, `${sessionId}.jsonl`), 'utf8')
    .replaceAll(project, SHOWN_PROJECT)
    .replaceAll(home, '/home/demo')
  writeFileSync(join(DEMO_DIR, `session-${index + 1}.jsonl`), text)
  process.stdout.write(`session ${index + 1}: ${sessionId} (${text.length} bytes)\n`)
}

function runClaude(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(CLAUDE, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000)
    child.on('close', (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr })
    })
  })
}
