import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())

function seededProject() {
  project = createBrainCliProject({ brain: false })
  return project
}

describe('somnus snapshot', () => {
  it('prints the snapshot of a fresh brain, within budget', async () => {
    seededProject()
    await project.run(['init', '--plugin'])
    const cwdRun = async (args: string[]) => project.run(args)
    const run = await cwdRun(['snapshot'])
    expect(run.code).toBe(0)
    expect(run.stdout.startsWith('# Agent Context — Auto-loaded\n\n## Soul')).toBe(true)
    expect(run.stdout).toContain('## Extended Core Files')
    expect(run.stdout).toContain('**System Flow** (_agent_context/core/6.system_flow.md)')
    const small = JSON.parse((await cwdRun(['snapshot', '--budget', '600', '--json'])).stdout)
    expect(small.text.length).toBeLessThanOrEqual(600)
    expect(small.chars).toBe(small.text.length)
    expect(small.sections.some((section: { form: string }) => section.form !== 'full')).toBe(true)
    expect((await cwdRun(['snapshot', '--budget', 'lots'])).code).toBe(2)
  })

  it('counts reminders it shows as fired, unless --peek', async () => {
    seededProject()
    await project.run(['init', '--plugin'])
    await project.run(['tasks', 'create', 'auth-refresh', '--tags', 'auth'])
    const ledgerPath = '_agent_context/state/.sleep.json'
    const ledger = JSON.parse(project.read(ledgerPath))
    ledger.triggers = [
      {
        id: 'tr_1',
        when: 'auth',
        remind: 'Tokens expire after 24h',
        source: null,
        created_at: '2026-01-01',
        fired_count: 0,
        max_fires: 3,
      },
    ]
    project.write(ledgerPath, JSON.stringify(ledger))
    const peek = JSON.parse((await project.run(['snapshot', '--peek', '--json'])).stdout)
    expect(peek.firedTriggerIds).toEqual(['tr_1'])
    expect(JSON.parse(project.read(ledgerPath)).triggers[0].fired_count).toBe(0)
    const shown = await project.run(['snapshot'])
    expect(shown.stdout).toContain('- When "auth": Tokens expire after 24h')
    expect(JSON.parse(project.read(ledgerPath)).triggers[0].fired_count).toBe(1)
  })

  it('--tokens prints chars/4 and the exact BPE count', async () => {
    seededProject()
    await project.run(['init', '--plugin'])
    const run = await project.run(['snapshot', '--tokens'])
    expect(run.stdout).toMatch(
      /\n---\n\d+ chars, ~\d+ tokens \(chars\/4\); \d+ tokens counted exactly \(o200k BPE, as `somnus tokens` does\)\n$/,
    )
    const json = JSON.parse((await project.run(['snapshot', '--tokens', '--json'])).stdout)
    expect(json.tokens.approximate).toBe(Math.ceil(json.text.length / 4))
    expect(json.tokens.exact).toBeGreaterThan(0)
  })
})
