import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../engine/core/frontmatter.ts'
import { isSlug, requireSlug, slugify } from './slug.ts'
import { appendTaskLog, completeTask, isTaskActive, parseTask, renderNewTask } from './tasks.ts'

const created = renderNewTask({
  slug: 'fix-auth',
  name: 'Fix the auth bug',
  why: 'Users are logged out every hour.',
  tags: ['auth', 'api'],
  feature: 'login',
  today: '2026-02-27',
})

describe('task files', () => {
  it('start active with frontmatter, a Why and a dated Log', () => {
    expect(parseFrontmatter(created).data).toEqual({
      name: 'Fix the auth bug',
      status: 'active',
      created: '2026-02-27',
      updated: '2026-02-27',
      tags: ['auth', 'api'],
      feature: 'login',
    })
    expect(created).toContain(
      '## Why\n\nUsers are logged out every hour.\n\n## Log\n<!-- LIFO: newest entry at top -->\n\n- **2026-02-27**: Created.\n',
    )
    expect(parseTask('fix-auth', created)).toMatchObject({
      slug: 'fix-auth',
      why: 'Users are logged out every hour.',
      status: 'active',
    })
  })

  it('log newest first and bump updated', () => {
    const once = appendTaskLog(created, '2026-02-28', 'Found the expiry bug')
    const twice = appendTaskLog(once, '2026-03-01', 'Fixed\nit')
    expect(twice).toContain(
      '- **2026-03-01**: Fixed it\n- **2026-02-28**: Found the expiry bug\n- **2026-02-27**: Created.',
    )
    expect(parseTask('fix-auth', twice).updated).toBe('2026-03-01')
  })

  it('complete with status, date and a logged summary', () => {
    const done = completeTask(created, '2026-03-02', 'Refresh before expiry')
    const task = parseTask('fix-auth', done)
    expect(task).toMatchObject({
      status: 'completed',
      completed: '2026-03-02',
      updated: '2026-03-02',
    })
    expect(isTaskActive(task)).toBe(false)
    expect(done).toContain(
      '- **2026-03-02**: Completed: Refresh before expiry\n- **2026-02-27**: Created.',
    )
  })

  it('cap the Why line at 100 characters and skip placeholders', () => {
    const long = renderNewTask({
      slug: 'x',
      name: 'x',
      why: 'word '.repeat(40),
      tags: [],
      feature: null,
      today: '2026-01-01',
    })
    expect(parseTask('x', long).why?.length).toBeLessThanOrEqual(100)
    const placeholder = renderNewTask({
      slug: 'x',
      name: 'x',
      why: null,
      tags: [],
      feature: null,
      today: '2026-01-01',
    })
    expect(parseTask('x', placeholder).why).toBeNull()
  })

  it('read agentcontext task fields', () => {
    const old =
      '---\nname: "Old"\nstatus: "todo"\ncreated_at: "2026-01-01"\nupdated_at: "2026-01-02"\ntags: []\n---\n'
    expect(parseTask('old', old)).toMatchObject({
      name: 'Old',
      status: 'todo',
      created: '2026-01-01',
      updated: '2026-01-02',
    })
  })
})

describe('slugs', () => {
  it('follow the rule and explain it when broken', () => {
    expect(isSlug('fix-auth-2')).toBe(true)
    for (const bad of ['Fix', 'a--b', '-a', 'a_b', '../x', '', 'a'.repeat(81)])
      expect(isSlug(bad)).toBe(false)
    expect(() => requireSlug('../etc', 'task')).toThrow(
      /not a valid task slug: use lowercase letters/,
    )
    expect(slugify('  Fix the Auth bug! (v2) ')).toBe('fix-the-auth-bug-v2')
    expect(slugify('Café déjà vu')).toBe('cafe-deja-vu')
    expect(slugify('!!!')).toBe('')
  })
})
