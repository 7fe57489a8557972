import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from '../../../../test/support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())

const seed000 = `---
id: feat_9qLM-gY_
status: active
created: '2026-02-25'
updated: '2026-02-26'
tags:
  - architecture
related_tasks: []
---

## Why

Agents accumulate knowledge and make decisions across many sessions, but that knowledge degrades or gets lost without a structured consolidation process.

## User Stories
`

describe('somnus features list', () => {
  it('lists PRDs newest first with id, status, title and the first line of Why', async () => {
    project = createBrainCliProject()
    project.write('_agent_context/core/features/sleep-consolidation.md', seed000)
    project.write(
      '_agent_context/core/features/login.md',
      '---\nid: feat_2\nstatus: planned\nupdated: 2026-03-01\ntitle: Login\n---\n# Login\n',
    )
    project.write('_agent_context/core/features/.gitkeep', '')
    const rows = JSON.parse((await project.run(['features', 'list', '--json'])).stdout)
    expect(rows).toEqual([
      {
        slug: 'login',
        id: 'feat_2',
        title: 'Login',
        status: 'planned',
        updated: '2026-03-01',
        why: null,
      },
      {
        slug: 'sleep-consolidation',
        id: 'feat_9qLM-gY_',
        title: 'sleep-consolidation',
        status: 'active',
        updated: '2026-02-26',
        why: expect.stringMatching(/^Agents accumulate knowledge .*…$/),
      },
    ])
    expect(rows[1].why.length).toBeLessThanOrEqual(120)
    const text = (await project.run(['features', 'list'])).stdout
    expect(text).toContain('- login feat_2 (planned, updated 2026-03-01): Login\n')
    expect(text).toContain(
      '- sleep-consolidation feat_9qLM-gY_ (active, updated 2026-02-26): sleep-consolidation\n    Why: Agents',
    )
  })

  it('says how to add one when there are none', async () => {
    project = createBrainCliProject()
    expect((await project.run(['features', 'list'])).stdout).toContain('No feature PRDs yet')
  })
})
