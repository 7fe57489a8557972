/**
 * The hooks' side of pattern learning (seed 002, docs/design/origins.md), in-process with the real
 * engine: SessionStart ends with the recent-pattern index inside the snapshot budget; SessionEnd
 * and PreCompact hand an encode to the detached starter; a Stop the gates refuse starts nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSomnus } from '../../src/brain/create-somnus.ts'
import { patternProjectId } from '../../src/patterns/adapters/fs/pattern-locations.ts'
import { renderPatternFile } from '../../src/patterns/core/pattern-entry.ts'
import { defaultHookDependencies } from '../../src/surfaces/hooks/hook-dependencies.ts'
import { runHook } from '../../src/surfaces/hooks/run-hook.ts'
import { createHookWorkspace, type HookWorkspace } from '../support/hook-workspace.ts'

let workspace: HookWorkspace | undefined
afterEach(() => workspace?.dispose())

function withPatterns(config: Record<string, unknown> = {}): HookWorkspace {
  workspace = createHookWorkspace({ config })
  const folder = join(
    workspace.home,
    '.claude',
    'rem',
    'patterns',
    patternProjectId(workspace.project),
  )
  mkdirSync(folder, { recursive: true })
  const entries = Array.from({ length: 8 }, (_, index) => ({
    id: `2026-02-0${index + 1}-0000000${index}`,
    domain: 'git',
    date: `2026-02-0${index + 1}`,
    category: 'gotcha' as const,
    tags: ['git'],
    sources: [`session-${index}`],
    status: 'active' as const,
    title: `Lesson number ${index + 1} about pushing`,
    observation: 'git push fails: no upstream branch',
    details: 'Fix: git push --set-upstream origin <branch>',
    context: 'Pushing a new branch for the first time.',
  }))
  writeFileSync(join(folder, 'git.md'), renderPatternFile({ preamble: '', entries }))
  return workspace
}

function recorder() {
  const started: string[][] = []
  return {
    started,
    dependencies: {
      ...defaultHookDependencies,
      startDetached: (args: string[]) => void started.push(args),
    },
  }
}

describe('pattern learning in the hooks', () => {
  it('SessionStart ends with the five newest titles, within the snapshot budget', async () => {
    const { project, home } = withPatterns({ snapshot_budget_chars: 3000 })
    const result = await runHook(
      'session-start',
      JSON.stringify({ session_id: 's', cwd: project, source: 'startup' }),
      { cwd: project, env: { HOME: home } },
    )
    const index = result.stdout.slice(result.stdout.indexOf('## Recent patterns'))
    expect(index.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- 2026-02-08 git: Lesson number 8 about pushing',
      '- 2026-02-07 git: Lesson number 7 about pushing',
      '- 2026-02-06 git: Lesson number 6 about pushing',
      '- 2026-02-05 git: Lesson number 5 about pushing',
      '- 2026-02-04 git: Lesson number 4 about pushing',
    ])
    expect(result.stdout).toContain('# Agent Context')
    expect(result.stdout.length).toBeLessThanOrEqual(3000)
    expect(result.stdout).not.toContain('--set-upstream')
  })

  it("createSomnus's SessionStart is the hook's: the same index, within the budget", async () => {
    const { project, home } = withPatterns({ snapshot_budget_chars: 3000 })
    const somnus = await createSomnus({ projectDir: project, env: { HOME: home } })
    const { text } = await somnus.sessionStart()
    const index = text.slice(text.indexOf('## Recent patterns'))
    expect(index.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- 2026-02-08 git: Lesson number 8 about pushing',
      '- 2026-02-07 git: Lesson number 7 about pushing',
      '- 2026-02-06 git: Lesson number 6 about pushing',
      '- 2026-02-05 git: Lesson number 5 about pushing',
      '- 2026-02-04 git: Lesson number 4 about pushing',
    ])
    expect(text).toContain('# Agent Context')
    expect(text.length).toBeLessThanOrEqual(3000)
  })

  it('shows no index when patterns are off', async () => {
    const { project, home } = withPatterns({ patterns: { enabled: false } })
    const result = await runHook(
      'session-start',
      JSON.stringify({ session_id: 's', cwd: project }),
      { cwd: project, env: { HOME: home } },
    )
    expect(result.stdout).not.toContain('Recent patterns')
  })

  it('SessionEnd and PreCompact start a detached encode of the session; a refused Stop starts nothing', async () => {
    const { project, home } = withPatterns({
      patterns: { stop_encode_chance: 0, stop_consolidate_chance: 0 },
    })
    const { started, dependencies } = recorder()
    const payload = { session_id: 'abc', transcript_path: join(home, 'abc.jsonl'), cwd: project }
    await runHook(
      'stop',
      JSON.stringify({ ...payload, last_assistant_message: 'done' }),
      { cwd: project, env: { HOME: home } },
      dependencies,
    )
    expect(started).toEqual([])
    await runHook(
      'session-end',
      JSON.stringify({ ...payload, reason: 'other' }),
      { cwd: project, env: { HOME: home } },
      dependencies,
    )
    await runHook(
      'pre-compact',
      JSON.stringify({ ...payload, trigger: 'auto' }),
      { cwd: project, env: { HOME: home } },
      dependencies,
    )
    expect(started).toHaveLength(2)
    for (const args of started) {
      expect(args.slice(0, 5)).toEqual([
        'patterns',
        'encode',
        payload.transcript_path,
        '--session',
        'abc',
      ])
      expect(args).toContain(join(project, '_agent_context', 'state', '.somnus-hook.log'))
    }
  })

  it('a Stop whose gates open starts the encode and the consolidation', async () => {
    const { project, home } = withPatterns({
      patterns: { stop_encode_chance: 1, stop_consolidate_chance: 1 },
    })
    const { started, dependencies } = recorder()
    await runHook(
      'stop',
      JSON.stringify({
        session_id: 'abc',
        transcript_path: join(home, 'abc.jsonl'),
        cwd: project,
        last_assistant_message: 'done',
      }),
      { cwd: project, env: { HOME: home } },
      dependencies,
    )
    expect(started.map((args) => args[1])).toEqual(['encode', 'consolidate'])
  })
})

describe('a burst of Stops', () => {
  it('starts pattern runs for at most one Stop a minute per project', async () => {
    const { project, home } = withPatterns({
      patterns: { stop_encode_chance: 1, stop_consolidate_chance: 0 },
    })
    const { started, dependencies } = recorder()
    for (let turn = 0; turn < 5; turn += 1) {
      const payload = {
        session_id: 'abc',
        transcript_path: join(home, 'abc.jsonl'),
        cwd: project,
        last_assistant_message: `turn ${turn}`,
      }
      await runHook(
        'stop',
        JSON.stringify(payload),
        { cwd: project, env: { HOME: home } },
        dependencies,
      )
    }
    expect(started).toHaveLength(1)
  })
})
