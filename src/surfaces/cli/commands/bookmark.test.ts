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

type StoredBookmark = { id: string; message: string; salience: number; task_slug: string | null }

function bookmarks(): StoredBookmark[] {
  return (project.ledger()?.bookmarks ?? []) as StoredBookmark[]
}

describe('somnus bookmark add', () => {
  it('stores the message with salience 2 by default, newest first, unlinked', async () => {
    const first = await project.run('bookmark', 'add', 'Chose', 'SQLite', 'for', 'the', 'cache')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^Bookmarked \*\* bm_[0-9a-f]{8}: Chose SQLite for the cache\n$/)
    await project.run('bookmark', 'add', '-s', '3', '-t', 'auth', 'Never', 'store', 'tokens')
    expect(bookmarks().map((entry) => [entry.message, entry.salience, entry.task_slug])).toEqual([
      ['Never store tokens', 3, 'auth'],
      ['Chose SQLite for the cache', 2, null],
    ])
    expect(project.ledger()?.bookmarks).toEqual([
      expect.objectContaining({ session_id: null, created_at: expect.stringMatching(/Z$/) }),
      expect.objectContaining({ session_id: null }),
    ])
  })

  it.each([['5'], ['0'], ['high'], ['2.5']])(
    'refuses salience %s with exit 2 and changes nothing',
    async (salience) => {
      const { code, stderr } = await project.run('bookmark', 'add', '-s', salience, 'x')
      expect(code).toBe(2)
      expect(stderr).toContain('Salience must be 1, 2 or 3')
      expect(project.ledgerText()).toBeNull()
    },
  )

  it('needs a message', async () => {
    expect((await project.run('bookmark', 'add')).code).toBe(2)
    expect((await project.run('bookmark', 'add', '  ')).code).toBe(2)
    expect(project.ledgerText()).toBeNull()
  })
})

describe('somnus bookmark list and clear', () => {
  it('lists by salience with * / ** / ***, and as JSON', async () => {
    await project.run('bookmark', 'add', '-s', '1', 'low')
    await project.run('bookmark', 'add', '-s', '3', 'critical')
    await project.run('bookmark', 'add', 'middle')
    const { stdout } = await project.run('bookmark', 'list')
    const lines = stdout.trim().split('\n')
    expect(lines.map((line) => line.split('  [')[0])).toEqual([
      '*** critical',
      '**  middle',
      '*   low',
    ])
    const json = JSON.parse((await project.run('bookmark', 'list', '--json')).stdout)
    expect(json.map((entry: StoredBookmark) => entry.salience)).toEqual([3, 2, 1])
    expect(json[0]).toMatchObject({ message: 'critical', session_id: null, task_slug: null })
  })

  it('says so when there are none', async () => {
    expect((await project.run('bookmark', 'list')).stdout).toBe('No bookmarks.\n')
    expect((await project.run('bookmark', 'list', '--json')).stdout).toBe('[]\n')
  })

  it('clears every bookmark and reports how many', async () => {
    await project.run('bookmark', 'add', 'a')
    await project.run('bookmark', 'add', 'b')
    expect((await project.run('bookmark', 'clear')).stdout).toBe('Cleared 2 bookmarks.\n')
    expect(bookmarks()).toEqual([])
  })

  it('teaches with a description and an example on every verb', async () => {
    for (const verb of ['add', 'list', 'clear']) {
      const { stdout } = await project.run('bookmark', verb, '--help')
      expect(stdout).toContain('Example')
      expect(stdout).toContain('somnus bookmark')
    }
  })
})
