import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { HAS_SHARED, SHARED_DIR } from '../../../../test/support/shared-data.ts'
import { handoffFromDigestDocument } from './digest-document-handoff.ts'

describe.skipIf(!HAS_SHARED)('handoffFromDigestDocument on the reference digest', () => {
  // Read when the tests run, not at collection: without ../shared the body of a skipped describe
  // still runs, and a read here would fail the file instead of skipping it.
  let handoff: ReturnType<typeof handoffFromDigestDocument>
  beforeAll(() => {
    const document = readFileSync(join(SHARED_DIR, 'examples/session-digest-258c7280.md'), 'utf8')
    handoff = handoffFromDigestDocument(document, ['spotter'], (id) => `cc-${id}`)
  })

  it('fills the seed fields from the sections, without the source comments', () => {
    expect(handoff).toMatchObject({
      handoff_id: 'cc-258c7280-ae70-4798-800f-63464d01a85d',
      session_id: '258c7280-ae70-4798-800f-63464d01a85d',
      created_at: '2026-02-11T00:00:00.000Z',
    })
    expect(handoff?.experienced).toMatch(/^built, pushed and closed beads epic spotter-gqc/)
    expect(handoff?.experienced).toContain('**Annotations**')
    expect(handoff?.learned).toContain('Refs store `messages.id`, not the JSONL uuid')
    expect(handoff?.noticed).toContain('`mix compile --force`')
    expect(handoff?.story).toMatch(/^- Done: epic and gqc\.1–7 closed/)
    expect(handoff?.remember?.split('\n')).toHaveLength(2)
    expect(handoff?.becoming).toContain('Terse prompts naming bead ids')
    for (const field of [handoff?.experienced, handoff?.learned, handoff?.remember]) {
      expect(field).not.toContain('<!--')
    }
  })

  it('cites every record the digest cites', () => {
    expect(handoff?.sources).toEqual(
      expect.arrayContaining(['1a2252ee', 'a18a45ad', 'd065d1d4', 'be65c12e', '41fc1786']),
    )
    expect(handoff?.tags).toEqual(['spotter', expect.stringMatching(/^project:marot\/spotter/)])
  })

  it('is null for a document that names no session', () => {
    expect(handoffFromDigestDocument('# Notes\n\nno frontmatter', [], (id) => id)).toBeNull()
  })
})
