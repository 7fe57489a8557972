/** `somnus patterns ...` in-process on a real transcript, in a temp HOME and project. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'

describe.skipIf(!HAS_SHARED)('somnus patterns', () => {
  let base: string
  let project: string
  let env: Record<string, string>
  const run = (args: string[]) => runCliCaptured(['patterns', ...args], { cwd: project, env })

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-patterns-cli-')))
    project = join(base, 'project')
    mkdirSync(join(project, '.git'), { recursive: true })
    mkdirSync(join(base, 'home'))
    env = { HOME: join(base, 'home') }
  })
  afterAll(() => rmSync(base, { recursive: true, force: true }))

  it('encode --dry-run writes nothing; encode --json reports the entries it added', async () => {
    const transcript = join(TRANSCRIPTS_DIR, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl')
    const dry = await run(['encode', transcript, '--dry-run', '--json'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, written: [] })
    expect((await run(['list', '--json'])).stdout.trim()).toBe('[]')
    const done = await run(['encode', transcript, '--json'])
    const result = JSON.parse(done.stdout) as {
      sessionId: string
      added: { domain: string }[]
      written: string[]
    }
    expect(result.sessionId).toBe('4d5611e5-241a-462a-8d15-5122611a9569')
    expect(result.added.length).toBeGreaterThan(0)
    expect(result.written).toContain('git.md')
    // The text output warns that a session this old is past the prune age.
    const again = await run(['encode', transcript, '--dry-run'])
    expect(again.stdout).toMatch(
      /dated 2026-02-12, older than 30 days: the next consolidation prunes/,
    )
  })

  it('list, show, index and prune answer in text and JSON', async () => {
    const list = JSON.parse((await run(['list', '--json'])).stdout) as {
      domain: string
      id: string
      date: string
    }[]
    expect(list.some((entry) => entry.domain === 'git')).toBe(true)
    const show = await run(['show', 'git'])
    expect(show.stdout).toMatch(/^---\nid: /)
    expect(show.stdout).toContain('- **Observation**: ')
    const byId = JSON.parse((await run(['show', list[0]?.id ?? '', '--json'])).stdout) as {
      entries: unknown[]
    }
    expect(byId.entries).toHaveLength(1)
    expect((await run(['show', 'nope'])).code).toBe(1)
    expect((await run(['index'])).stdout).toContain('## Recent patterns')
    // Entries carry the session's date (2026-02-12), so at 30 days they are all past their age.
    expect(list.every((entry) => entry.date === '2026-02-12')).toBe(true)
    const stale = JSON.parse((await run(['prune', '--dry-run', '--json'])).stdout)
    expect(stale).toMatchObject({ dryRun: true })
    expect(stale.pruned).toHaveLength(list.length)
    expect(JSON.parse((await run(['prune', '--days', '100000', '--json'])).stdout)).toMatchObject({
      pruned: [],
    })
    expect(JSON.parse((await run(['list', '--json'])).stdout)).toHaveLength(list.length)
  })

  it('consolidate --json bails out when nothing recurs, and says why', async () => {
    const result = await run(['consolidate', '--json'])
    expect(result.code, result.stderr).toBe(0)
    const parsed = JSON.parse(result.stdout) as { bailOut: string | null; skills: unknown[] }
    expect(parsed.skills).toEqual([])
    expect(parsed.bailOut === null || /no domain has 3/.test(parsed.bailOut)).toBe(true)
  })

  it('a detached run started with --hook-log logs its failure and exits 0', async () => {
    const log = join(base, 'hook.log')
    const result = await run(['encode', join(base, 'missing.jsonl'), '--hook-log', log])
    expect(result.code).toBe(0)
    expect(readFileSync(log, 'utf8')).toMatch(
      /patterns encode failed: No transcript at .*missing\.jsonl/,
    )
  })
})
