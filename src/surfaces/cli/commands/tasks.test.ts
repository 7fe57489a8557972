import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())
const today = new Date().toISOString().slice(0, 10)

describe('somnus tasks', () => {
  it('creates a task from a name, logs to it, completes it and lists it', async () => {
    project = createBrainCliProject()
    const created = await project.run([
      'tasks',
      'create',
      'Fix the auth bug',
      '--why',
      'Users are logged out hourly',
      '--tags',
      'auth, api',
      '--feature',
      'login',
    ])
    expect(created).toMatchObject({
      code: 0,
      stdout: 'Created task fix-the-auth-bug: _agent_context/state/fix-the-auth-bug.md\n',
    })
    expect(
      (await project.run(['tasks', 'log', 'fix-the-auth-bug', 'Found', 'the', 'expiry', 'bug']))
        .code,
    ).toBe(0)

    const text = project.read('_agent_context/state/fix-the-auth-bug.md')
    expect(text).toContain(
      `name: Fix the auth bug\nstatus: active\ncreated: ${today}\nupdated: ${today}\ntags:\n  - auth\n  - api\nfeature: login\n---`,
    )
    expect(text).toContain(
      `## Why\n\nUsers are logged out hourly\n\n## Log\n<!-- LIFO: newest entry at top -->\n\n- **${today}**: Found the expiry bug\n- **${today}**: Created.`,
    )

    const listed = await project.run(['tasks', 'list'])
    expect(listed.stdout).toBe(
      `- fix-the-auth-bug Fix the auth bug (active, updated ${today}) [auth, api]\n    Why: Users are logged out hourly\n`,
    )

    expect(
      (await project.run(['tasks', 'complete', 'fix-the-auth-bug', 'Refresh', 'early'])).stdout,
    ).toBe(`Completed fix-the-auth-bug (${today}).\n`)
    expect(project.read('_agent_context/state/fix-the-auth-bug.md')).toContain(`status: completed`)
    expect((await project.run(['tasks', 'list'])).stdout).toContain('No active tasks')
    const all = JSON.parse((await project.run(['tasks', 'list', '--all', '--json'])).stdout)
    expect(all).toEqual([
      expect.objectContaining({
        slug: 'fix-the-auth-bug',
        status: 'completed',
        completed: today,
        tags: ['auth', 'api'],
        feature: 'login',
      }),
    ])
  })

  it('rejects bad slugs with the rule, unknown tasks with NOT_FOUND, duplicates with a hint', async () => {
    project = createBrainCliProject()
    const bad = await project.run(['tasks', 'log', 'Bad_Slug', 'x'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain(
      '"Bad_Slug" is not a valid task slug: use lowercase letters, digits and single hyphens',
    )
    const missing = await project.run(['tasks', 'complete', 'nope'])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('No task "nope"')
    await project.run(['tasks', 'create', 'dup'])
    const duplicate = await project.run(['tasks', 'create', 'dup'])
    expect(duplicate.code).toBe(2)
    expect(duplicate.stderr).toContain('somnus tasks log dup')
    expect((await project.run(['tasks', 'create', '!!!'])).code).toBe(2)
    expect((await project.run(['tasks', 'create', 'x', '--feature', 'Not A Slug'])).code).toBe(2)
  })

  it('ignores the ledger and other dot files in state/', async () => {
    project = createBrainCliProject()
    project.write('_agent_context/state/.sleep.json', '{}')
    project.write('_agent_context/state/.notes.md', 'not a task')
    expect((await project.run(['tasks', 'list', '--all', '--json'])).stdout).toBe('[]\n')
  })
})
