import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())
const today = new Date().toISOString().slice(0, 10)
const ledger = () => JSON.parse(project.read('_agent_context/state/.sleep.json'))

describe('somnus knowledge', () => {
  it('creates a note from piped stdin or --body', async () => {
    project = createBrainCliProject()
    const piped = await project.run(
      [
        'knowledge',
        'create',
        'jwt-auth',
        '--title',
        'JWT auth flow',
        '--tags',
        'auth,api',
        '--summary',
        'How tokens refresh',
      ],
      'Tokens live 24 h.\n',
    )
    expect(piped).toMatchObject({
      code: 0,
      stdout: 'Created _agent_context/knowledge/jwt-auth.md\n',
    })
    expect(project.read('_agent_context/knowledge/jwt-auth.md')).toBe(
      `---\ntitle: JWT auth flow\nsummary: How tokens refresh\ntags:\n  - auth\n  - api\npinned: false\ncreated: ${today}\nupdated: ${today}\n---\n\nTokens live 24 h.\n`,
    )
    await project.run(
      ['knowledge', 'create', 'deploy', '--pinned', '--body', 'make ship'],
      'ignored',
    )
    expect(project.read('_agent_context/knowledge/deploy.md')).toContain('pinned: true')
    expect(project.read('_agent_context/knowledge/deploy.md')).toContain('\nmake ship\n')
    const duplicate = await project.run(['knowledge', 'create', 'deploy', '--body', 'x'])
    expect(duplicate.code).toBe(2)
    expect((await project.run(['knowledge', 'create', 'No Spaces', '--body', 'x'])).code).toBe(2)
  })

  it('touch records the read in the ledger and refuses unknown notes', async () => {
    project = createBrainCliProject()
    await project.run(['knowledge', 'create', 'jwt', '--body', 'x'])
    expect((await project.run(['knowledge', 'touch', 'jwt'])).stdout).toBe(
      `Touched jwt: read 1 times, last ${today}.\n`,
    )
    await project.run(['knowledge', 'touch', 'jwt'])
    expect(ledger().knowledge_access).toEqual({ jwt: { last_accessed: today, count: 2 } })
    const missing = await project.run(['knowledge', 'touch', 'nope'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No knowledge note "nope"')
  })

  it('lists notes with reads and staleness', async () => {
    project = createBrainCliProject()
    await project.run(['knowledge', 'create', 'fresh', '--tags', 'a', '--pinned', '--body', 'x'])
    project.write(
      '_agent_context/knowledge/old.md',
      '---\ntitle: Old\ncreated: 2020-01-01\n---\nOld.\n',
    )
    project.write(
      '_agent_context/knowledge/read-long-ago.md',
      '---\ntitle: Long ago\ncreated: 2020-01-01\n---\nx\n',
    )
    project.write(
      '_agent_context/state/.sleep.json',
      JSON.stringify({
        knowledge_access: { 'read-long-ago': { last_accessed: '2020-02-01', count: 3 } },
      }),
    )
    const rows = JSON.parse((await project.run(['knowledge', 'list', '--json'])).stdout)
    expect(
      rows.map((row: { slug: string; stale: boolean; count: number; pinned: boolean }) => [
        row.slug,
        row.stale,
        row.count,
        row.pinned,
      ]),
    ).toEqual([
      ['fresh', false, 0, true],
      ['old', true, 0, false],
      ['read-long-ago', true, 3, false],
    ])
    const text = (await project.run(['knowledge', 'list'])).stdout
    expect(text).toContain('- fresh [a] (pinned): never read\n')
    expect(text).toContain('- read-long-ago Long ago: read 3x, last 2020-02-01 (stale)\n')
  })
})
