import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createLedgerCliProject,
  type LedgerCliProject,
} from '../../../../test/support/ledger-cli-project.ts'

let project: LedgerCliProject

beforeEach(() => {
  project = createLedgerCliProject()
})

afterEach(() => {
  project.dispose()
})

type StoredTrigger = {
  id: string
  when: string
  remind: string
  source: string | null
  fired_count: number
  max_fires: number
}

function triggers(): StoredTrigger[] {
  return (project.ledger()?.triggers ?? []) as StoredTrigger[]
}

describe('somnus trigger add', () => {
  it('appends an unfired trigger with max_fires 3 by default', async () => {
    const added = await project.run('trigger', 'add', 'auth,login', 'JWT', 'tokens', 'expire')
    expect(added.code).toBe(0)
    expect(added.stdout).toMatch(
      /^Added trigger trg_[0-9a-f]{8}: when "auth,login" → JWT tokens expire \(max 3 fires\)\n$/,
    )
    await project.run('trigger', 'add', 'billing', 'Webhooks', 'retry', '-m', '5', '-s', 'PR 12')
    expect(
      triggers().map((entry) => [
        entry.when,
        entry.remind,
        entry.max_fires,
        entry.fired_count,
        entry.source,
      ]),
    ).toEqual([
      ['auth,login', 'JWT tokens expire', 3, 0, null],
      ['billing', 'Webhooks retry', 5, 0, 'PR 12'],
    ])
  })

  it.each([['0'], ['abc'], ['1.5']])('refuses --max-fires %s with exit 2', async (maxFires) => {
    const { code, stderr } = await project.run('trigger', 'add', 'x', 'y', '-m', maxFires)
    expect(code).toBe(2)
    expect(stderr).toContain('--max-fires must be a whole number')
    expect(project.ledgerText()).toBeNull()
  })
})

describe('somnus trigger list and remove', () => {
  it('lists only triggers that can still fire', async () => {
    project.writeLedger({
      triggers: [
        {
          id: 'trg_spent',
          when: 'a',
          remind: 'spent',
          source: null,
          created_at: '2026-02-27T10:00:00.000Z',
          fired_count: 3,
          max_fires: 3,
        },
        {
          id: 'trg_live',
          when: 'b',
          remind: 'live',
          source: 'PR 9',
          created_at: '2026-02-27T10:00:00.000Z',
          fired_count: 1,
          max_fires: 3,
        },
      ],
    })
    const { stdout } = await project.run('trigger', 'list')
    expect(stdout).toBe('trg_live  when "b" → live  (fired 1/3, source: PR 9)\n')
    const json = JSON.parse((await project.run('trigger', 'list', '--json')).stdout)
    expect(json).toEqual([
      expect.objectContaining({
        id: 'trg_live',
        when: 'b',
        remind: 'live',
        fired_count: 1,
        max_fires: 3,
      }),
    ])
  })

  it('says so when there are none', async () => {
    expect((await project.run('trigger', 'list')).stdout).toBe('No active triggers.\n')
  })

  it('removes by id; an unknown id points to `somnus trigger list`', async () => {
    await project.run('trigger', 'add', 'a', 'first')
    await project.run('trigger', 'add', 'b', 'second')
    const [first] = triggers()
    const removed = await project.run('trigger', 'remove', first?.id ?? '')
    expect(removed).toEqual({
      code: 0,
      stdout: `Removed trigger ${first?.id} (when "a").\n`,
      stderr: '',
    })
    expect(triggers().map((entry) => entry.remind)).toEqual(['second'])
    const missing = await project.run('trigger', 'remove', 'trg_nope')
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('somnus trigger list')
    expect(triggers()).toHaveLength(1)
  })

  it('teaches with a description and an example on every verb', async () => {
    for (const verb of ['add', 'list', 'remove']) {
      const { stdout } = await project.run('trigger', verb, '--help')
      expect(stdout).toContain('Example')
      expect(stdout).toContain('somnus trigger')
    }
  })
})
