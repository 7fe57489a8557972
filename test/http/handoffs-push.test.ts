/**
 * `somnus handoffs push`: a project's sessions reach a running service over a real socket, each
 * once, in the pushing key's tenant, with secrets redacted; a wrong key stops the push at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderDigestDocument } from '../../src/brain/core/sleep-run/digest-document.ts'
import type { SessionDigest } from '../../src/engine/core/digest/session-digest.ts'
import { type BrainCliProject, createBrainCliProject } from '../support/brain-cli.ts'
import { type HttpServiceFixture, openHttpService } from '../support/http-service.ts'

const SESSIONS = [
  {
    session_id: '1f0c2a9e-aaaa-4bbb-8ccc-000000000001',
    transcript_path: null,
    stopped_at: '2026-03-02T10:00:00.000Z',
    last_assistant_message:
      'Moved the ingest path to batched inserts; p99 fell from 80 ms to 12 ms. The key was sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH.',
    change_count: 4,
    tool_count: 22,
    score: 2,
    task_slugs: ['ingest-speed'],
  },
  {
    session_id: '1f0c2a9e-aaaa-4bbb-8ccc-000000000002',
    transcript_path: null,
    stopped_at: '2026-03-03T09:30:00.000Z',
    last_assistant_message: 'Wrote the tenant isolation tests for every endpoint.',
    change_count: 2,
    tool_count: 9,
    score: 1,
    task_slugs: [],
  },
]

const HISTORY = [
  {
    date: '2026-03-01',
    consolidated_at: '2026-03-01T18:00:00.000Z',
    summary: 'Consolidated the schema work: PGlite by default, PostgreSQL for scale.',
    debt_before: 7,
    debt_after: 0,
    sessions_processed: 3,
    bookmarks_processed: 1,
    session_ids: ['s-old-1', 's-old-2', 's-old-3'],
    bookmark_ids: ['bm_1'],
  },
]

/** The second session, slept and digested: its digest wins over its ledger entry. */
const DIGEST: SessionDigest = {
  sessionId: SESSIONS[1]?.session_id as string,
  date: '2026-03-03',
  startedAt: '2026-03-03T08:00:00.000Z',
  endedAt: '2026-03-03T09:30:00.000Z',
  project: '/work/somnus',
  branch: 'i-http',
  files: ['s2.jsonl'],
  summary: { text: 'Wrote tenant isolation tests for every endpoint.', sources: ['a1b2c3d4'] },
  changes: [
    {
      area: 'test/http/',
      items: [{ text: 'http-api-suite.ts: 404 for another tenant', sources: ['e5f6'] }],
    },
  ],
  commits: [],
  decisions: [{ text: 'Another tenant’s object answers 404, not 403.', sources: ['0a0b'] }],
  gotchas: [{ text: 'A 413 left the socket unusable → Connection: close.', sources: ['0c0d'] }],
  done: [{ text: '40 API tests pass on both databases.', sources: ['0e0f'] }],
  open: [{ text: 'Ingest below target on a loaded machine.', sources: ['1a1b'] }],
  preferences: [{ text: 'Measure before tuning.', sources: ['1c1d'] }],
}

describe('somnus handoffs push', () => {
  let service: HttpServiceFixture
  let project: BrainCliProject
  let url: string
  beforeAll(async () => {
    service = await openHttpService('pglite', 'socket')
    project = createBrainCliProject()
    project.write(
      '_agent_context/state/.sleep.json',
      JSON.stringify({ debt: 3, sessions: SESSIONS, sessions_since_last_sleep: 2 }),
    )
    project.write('_agent_context/state/.sleep-history.json', JSON.stringify(HISTORY))
    project.write(
      '_agent_context/knowledge/sessions/2026-03-03-1f0c2a9e.md',
      renderDigestDocument(DIGEST),
    )
    url = service.url as string
  })
  afterAll(async () => {
    project?.dispose()
    await service?.close()
  })

  it('sends every session and past sleep once, into the key’s tenant, secrets redacted', async () => {
    const first = await project.run(['handoffs', 'push', '--url', url, '--key', service.keys.first])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('Sent 3 handoff(s), 0 already there, 0 failed.')

    const stored = await service.somnus.listHandoffs('acme', { limit: 50 })
    const bySession = new Map(stored.items.map((handoff) => [handoff.session_id, handoff]))
    const session = bySession.get(SESSIONS[0]?.session_id as string)
    expect(session?.experienced).toContain('p99 fell from 80 ms to 12 ms')
    expect(session?.experienced).not.toContain('sk-ant-api03')
    expect(session?.created_at).toBe('2026-03-02T10:00:00.000Z')
    expect(session?.remember).toBe('Tasks: ingest-speed')
    expect(session?.sources).toEqual([SESSIONS[0]?.session_id])
    const digested = bySession.get(DIGEST.sessionId)
    expect(digested).toMatchObject({
      experienced: expect.stringContaining('Wrote tenant isolation tests for every endpoint.'),
      learned: '- Another tenant’s object answers 404, not 403.',
      noticed: '- A 413 left the socket unusable → Connection: close.',
      story: '- Done: 40 API tests pass on both databases.',
      remember: '- Open: Ingest below target on a loaded machine.',
      becoming: '- Measure before tuning.',
      created_at: '2026-03-03T00:00:00.000Z',
    })
    expect(digested?.experienced).toContain('http-api-suite.ts: 404 for another tenant')
    expect(digested?.experienced).not.toContain('<!--')
    expect(digested?.sources).toEqual(
      expect.arrayContaining([DIGEST.sessionId, 'a1b2c3d4', 'e5f6', '0a0b', '1c1d']),
    )
    const sleep = stored.items.find((handoff) => handoff.with_whom === 'somnus')
    expect(sleep?.story).toContain('PGlite by default')
    expect(sleep?.sources).toEqual(['s-old-1', 's-old-2', 's-old-3', 'bm_1'])
    expect((await service.somnus.listHandoffs('globex', { limit: 50 })).items).toEqual([])

    const again = await project.run(['handoffs', 'push', '--url', url, '--key', service.keys.first])
    expect(again.stdout).toContain('Sent 0 handoff(s), 3 already there, 0 failed.')
    expect((await service.somnus.listHandoffs('acme', { limit: 50 })).items).toHaveLength(3)
  })

  it('prints the handoffs with --dry-run and sends nothing', async () => {
    const run = await project.run(['handoffs', 'push', '--url', url, '--dry-run'])
    expect(run.code).toBe(0)
    const handoffs = JSON.parse(run.stdout) as Array<{ handoff_id: string }>
    // The digested session first (from its digest), then the ledger's other session, then sleeps.
    expect(handoffs.map((handoff) => handoff.handoff_id)).toEqual([
      `cc-${SESSIONS[1]?.session_id}`,
      `cc-${SESSIONS[0]?.session_id}`,
      'sleep-2026-03-01T18:00:00.000Z',
    ])
  })

  it('takes the key from --key-file or stdin (kept off the command line), refusing both at once', async () => {
    project.write('key.txt', `${service.keys.first}\n`)
    const fromFile = await project.run(['handoffs', 'push', '--url', url, '--key-file', 'key.txt'])
    expect(fromFile.code, fromFile.stderr).toBe(0)
    expect(fromFile.stdout).toMatch(/^Sent \d+ handoff\(s\)/)
    const fromStdin = await project.run(
      ['handoffs', 'push', '--url', url, '--key-file', '-'],
      `${service.keys.first}\n`,
    )
    expect(fromStdin.code, fromStdin.stderr).toBe(0)
    const wrong = await project.run(
      ['handoffs', 'push', '--url', url, '--key-file', '-'],
      'smn_wrong\n',
    )
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('refused the API key (401)')
    const both = await project.run([
      'handoffs',
      'push',
      '--url',
      url,
      '--key',
      service.keys.first,
      '--key-file',
      'key.txt',
    ])
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('--key or --key-file, not both')
    const help = await project.run(['handoffs', 'push', '--help'])
    expect(help.stdout).toContain('visible to other users')
  })

  it('stops at a refused key with one clear error (exit 2)', async () => {
    const run = await project.run(['handoffs', 'push', '--url', url, '--key', 'smn_wrong'])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('refused the API key (401)')
  })

  it('says the service is unreachable instead of failing with a stack', async () => {
    const run = await project.run([
      'handoffs',
      'push',
      '--url',
      'http://127.0.0.1:9',
      '--key',
      service.keys.first,
    ])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('Cannot reach http://127.0.0.1:9')
  })
})
