import { describe, expect, it } from 'vitest'
import { memoryBrain } from '../../../test/support/memory-brain.ts'
import { freshSleepState } from '../core/sleep-state.ts'
import { buildSnapshot, recordTriggerFires } from './build-snapshot.ts'

const soul =
  '---\nname: Soul\ntype: core\nsummary: Who\nupdated: 2026-01-01\n---\n\nI check my work.\n'

function brainWithTrigger() {
  return memoryBrain({
    files: {
      'core/0.soul.md': soul,
      'core/4.tech_stack.md': '---\nname: Tech Stack\nsummary: Node 20 and zod\n---\n',
      'core/5.data_structures.sql':
        '-- name: Data Structures\n-- summary: Tables\nCREATE TABLE x ();\n',
      'core/CHANGELOG.json': '[{"date":"2026-02-27","type":"fix","message":"Early refresh"}]',
      'core/RELEASES.json': '{ not json',
      'core/features/login.md':
        '---\nid: feat_1\nstatus: active\nupdated: 2026-02-20\n---\n\n## Why\n\nPeople log in.\n',
      'state/fix-auth.md':
        '---\nname: Fix auth\nstatus: active\ntags: [auth]\n---\n\n## Why\n\nTokens expire.\n',
      'state/.sleep.json': '{}',
      'knowledge/jwt.md':
        '---\ntitle: JWT\ntags: [auth]\ncreated: 2026-02-01\n---\n\nTokens live 24 h.\n',
      'knowledge/old.md': '---\ntitle: Old\ncreated: 2025-01-01\n---\n\nOld stuff.\n',
    },
    state: {
      ...freshSleepState(),
      debt: 8,
      triggers: [
        {
          id: 'tr_1',
          when: 'auth',
          remind: 'Refresh before calls',
          source: null,
          created_at: 'x',
          fired_count: 0,
          max_fires: 3,
        },
        {
          id: 'tr_2',
          when: 'billing',
          remind: 'Never',
          source: null,
          created_at: 'x',
          fired_count: 0,
          max_fires: 3,
        },
      ],
    },
  })
}

describe('buildSnapshot', () => {
  it('reads every part of the brain and renders it', async () => {
    const brain = brainWithTrigger()
    const snapshot = await buildSnapshot(brain)
    expect(snapshot.text).toContain('I check my work.')
    expect(snapshot.text).toContain(
      '- **Tech Stack** (_agent_context/core/4.tech_stack.md): Node 20 and zod',
    )
    expect(snapshot.text).toContain(
      '- **Data Structures** (_agent_context/core/5.data_structures.sql): Tables',
    )
    expect(snapshot.text).not.toContain('CHANGELOG.json**')
    expect(snapshot.text).toContain(
      '- **fix-auth** Fix auth (active, tags: auth)\n  Why: Tokens expire.',
    )
    expect(snapshot.text).toContain('- Debt: 8 (Sleepy)')
    expect(snapshot.text).toContain('- 2026-02-27 [fix] Early refresh')
    expect(snapshot.text).toMatch(
      /## Latest Release\n\n- _agent_context\/core\/RELEASES.json is not valid JSON/,
    )
    expect(snapshot.text).toContain(
      '- **login** (active, updated 2026-02-20)\n  Why: People log in.',
    )
    expect(snapshot.text).toContain('(stale: never read)')
    expect(snapshot.text).toContain('## Warm Knowledge\n\n- **jwt**: Tokens live 24 h.')
    expect(snapshot.text).toContain('- When "auth": Refresh before calls')
    expect(snapshot.firedTriggerIds).toEqual(['tr_1'])
  })

  it('is read-only; recordTriggerFires counts the fires and expires after max_fires', async () => {
    const brain = brainWithTrigger()
    const first = await buildSnapshot(brain)
    expect((await brain.state.read()).triggers[0]?.fired_count).toBe(0)
    for (let session = 0; session < 3; session += 1) {
      const snapshot = session === 0 ? first : await buildSnapshot(brain)
      await recordTriggerFires(brain, snapshot.firedTriggerIds)
    }
    expect((await brain.state.read()).triggers.map((trigger) => trigger.fired_count)).toEqual([
      3, 0,
    ])
    const exhausted = await buildSnapshot(brain)
    expect(exhausted.firedTriggerIds).toEqual([])
    expect(exhausted.text).not.toContain('Refresh before calls')
  })

  it('uses the configured scoring policy and budget', async () => {
    const brain = memoryBrain({
      files: { 'core/0.soul.md': soul },
      state: { ...freshSleepState(), debt: 30 },
      config: { scoring: 'calibrated', snapshot_budget_chars: 200 },
    })
    const snapshot = await buildSnapshot(brain)
    expect(snapshot.text.length).toBeLessThanOrEqual(200)
    expect(snapshot.text).toContain('Debt: 30 (Drowsy)')
  })
})
