import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'
import { runCliCaptured } from '../../../../test/support/run-cli-captured.ts'
import { REPO_ROOT } from '../../../../test/support/shared-data.ts'
import { bareSomnusCommands, commandsIn } from '../../../../test/support/somnus-commands.ts'

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

  it('names Somnus as the hooks do unless `somnus` on PATH is this install', async () => {
    seededProject()
    await project.run(['init', '--plugin'])
    const absolute = `"${process.execPath}" "${REPO_ROOT}/bin/somnus.js"`
    const snapshotWith = async (path: string | undefined) =>
      (await runCliCaptured(['snapshot'], { cwd: project.project, env: { PATH: path } })).stdout
    // No somnus on PATH (`npm i -D`): every command it names runs this install by its path.
    const bare = await snapshotWith('/usr/bin:/bin')
    expect(bareSomnusCommands(bare)).toEqual([])
    expect(commandsIn(bare, absolute)).toContain(`${absolute} bookmark add "<what>" -s 2`)
    // npx puts node_modules/.bin on PATH; Claude Code's shell does not have it.
    const npxBin = join(project.project, 'node_modules', '.bin')
    mkdirSync(npxBin, { recursive: true })
    symlinkSync(join(REPO_ROOT, 'bin', 'somnus.js'), join(npxBin, 'somnus'))
    expect(bareSomnusCommands(await snapshotWith(`${npxBin}:/usr/bin`))).toEqual([])
    // A global install (`npm i -g`): `somnus` on PATH is this install, so the short name does.
    const globalBin = join(project.project, 'global-bin')
    mkdirSync(globalBin)
    symlinkSync(join(REPO_ROOT, 'bin', 'somnus.js'), join(globalBin, 'somnus'))
    const global = await snapshotWith(`${globalBin}:/usr/bin`)
    expect(bareSomnusCommands(global)).toContain('somnus bookmark add "<what>" -s 2')
    expect(global).not.toContain(absolute)
  })
})
