/**
 * Issue 13, item 2, for ledgers written before redaction existed (or by hand): what the listing
 * commands print, as text or JSON, shows markers, never the secret; `sleep add` stores none.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLedgerCliProject, type LedgerCliProject } from './support/ledger-cli-project.ts'
import { SECRET_SAMPLES } from './support/secret-corpus.ts'

let project: LedgerCliProject
beforeEach(() => {
  project = createLedgerCliProject()
})
afterEach(() => project.dispose())

const github = SECRET_SAMPLES.find((sample) => sample.name === 'GitHub classic token')
const password = SECRET_SAMPLES.find((sample) => sample.name === 'password in prose')
const secrets = [github?.secret ?? '?', password?.secret ?? '?']

/** A ledger an older Somnus wrote, secrets stored verbatim. */
const OLD_LEDGER = {
  debt: 1,
  sessions_since_last_sleep: 1,
  sessions: [
    {
      session_id: 's-old',
      transcript_path: null,
      stopped_at: '2026-03-01T10:00:00.000Z',
      last_assistant_message: `Deployed with ${github?.text}`,
      change_count: 1,
      tool_count: 2,
      score: 1,
      task_slugs: [],
    },
  ],
  bookmarks: [
    {
      id: 'bm_old',
      message: `Staging login: ${password?.text}`,
      salience: 3,
      created_at: '2026-03-01T10:00:00.000Z',
      session_id: null,
      task_slug: null,
    },
  ],
  triggers: [
    {
      id: 'trg_old',
      when: 'deploy',
      remind: `use ${github?.text}`,
      max_fires: 3,
      fired_count: 0,
      created_at: '2026-03-01T10:00:00.000Z',
      source: null,
    },
  ],
}

describe('listings of an old ledger that holds secrets', () => {
  it.each([
    [['sleep', 'status']],
    [['sleep', 'status', '--json']],
    [['bookmark', 'list']],
    [['bookmark', 'list', '--json']],
    [['trigger', 'list']],
    [['trigger', 'list', '--json']],
  ])('somnus %j prints markers, not the secrets', async (args) => {
    project.writeLedger(OLD_LEDGER)
    const run = await project.run(...args)
    expect(run.code).toBe(0)
    for (const secret of secrets) expect(run.stdout).not.toContain(secret)
    expect(run.stdout).toMatch(/\[redacted: (github token|password)\]/)
  })

  it('sleep add stores its description redacted', async () => {
    const run = await project.run('sleep', 'add', '2', `Rotated ${github?.text}`)
    expect(run.code).toBe(0)
    for (const secret of secrets) expect(project.ledgerText()).not.toContain(secret)
    expect(project.ledgerText()).toContain('[redacted: github token]')
  })
})
