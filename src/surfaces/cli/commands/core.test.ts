import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())
const today = new Date().toISOString().slice(0, 10)

describe('somnus core changelog add', () => {
  it('puts entries at the top of CHANGELOG.json, keeping what was there', async () => {
    project = createBrainCliProject()
    project.write(
      '_agent_context/core/CHANGELOG.json',
      JSON.stringify([
        { date: '2026-01-01', type: 'feat', scope: 'cli', description: 'old', sources: ['s1'] },
      ]),
    )
    expect(
      (
        await project.run([
          'core',
          'changelog',
          'add',
          'Token',
          'refresh',
          'retries',
          '--type',
          'fix',
        ])
      ).stdout,
    ).toBe(`Added to core/CHANGELOG.json: ${today} [fix] Token refresh retries\n`)
    await project.run(['core', 'changelog', 'add', 'Docs', 'pass', '--type', 'docs'])
    expect(JSON.parse(project.read('_agent_context/core/CHANGELOG.json'))).toEqual([
      { date: today, type: 'docs', message: 'Docs pass' },
      { date: today, type: 'fix', message: 'Token refresh retries' },
      { date: '2026-01-01', type: 'feat', scope: 'cli', description: 'old', sources: ['s1'] },
    ])
  })

  it('creates the file, defaults to feat, and rejects unknown types and broken files', async () => {
    project = createBrainCliProject()
    const json = JSON.parse(
      (await project.run(['core', 'changelog', 'add', 'First', '--json'])).stdout,
    )
    expect(json).toEqual({ date: today, type: 'feat', message: 'First' })
    const badType = await project.run(['core', 'changelog', 'add', 'x', '--type', 'perf'])
    expect(badType.code).toBe(2)
    expect(badType.stderr).toContain('use one of feat, fix, refactor, docs, chore')
    project.write('_agent_context/core/CHANGELOG.json', '{ broken')
    const broken = await project.run(['core', 'changelog', 'add', 'x'])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain('CHANGELOG.json is not valid JSON')
    expect(project.read('_agent_context/core/CHANGELOG.json')).toBe('{ broken')
  })
})
