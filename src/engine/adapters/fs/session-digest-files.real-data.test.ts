/** Session digests of the real Claude Code transcripts, read from disk through the fast reader. */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HAS_SHARED, TRANSCRIPTS_DIR } from '../../../../test/support/shared-data.ts'
import { renderSessionDigest } from '../../core/digest/render-session-digest.ts'
import type { SessionDigest } from '../../core/digest/session-digest.ts'
import {
  type DigestFileKind,
  SessionDigestBuilder,
} from '../../core/digest/session-digest-builder.ts'
import { countTokens } from '../../core/tokens.ts'
import { readSessionDigest } from './session-digest-files.ts'

const SESSIONS = [
  '258c7280-ae70-4798-800f-63464d01a85d',
  '4d5611e5-241a-462a-8d15-5122611a9569',
  '8463c716-a2ea-4c14-9efa-87158ebd9f20',
]

async function digestOf(session: string, since?: string): Promise<SessionDigest> {
  const found = await readSessionDigest(
    join(TRANSCRIPTS_DIR, `${session}.jsonl`),
    since === undefined ? {} : { since },
  )
  if (!('digest' in found)) throw new Error(`not read: ${JSON.stringify(found)}`)
  return found.digest
}

/** The same digest built the plain way: JSON.parse of every line, everything fed. */
function referenceDigest(session: string): SessionDigest {
  const builder = new SessionDigestBuilder({ sessionId: session })
  const feed = (path: string, name: string, kind: DigestFileKind) => {
    builder.beginFile(name, kind)
    for (const line of readFileSync(path, 'utf8').split('\n'))
      if (line.trim() !== '') builder.addRecord(JSON.parse(line))
  }
  feed(join(TRANSCRIPTS_DIR, `${session}.jsonl`), `${session}.jsonl`, 'main')
  const folder = join(TRANSCRIPTS_DIR, session, 'subagents')
  for (const name of readdirSync(folder).sort())
    feed(
      join(folder, name),
      `subagents/${name}`,
      name.startsWith('agent-acompact-') ? 'compaction' : 'subagent',
    )
  return builder.build()
}

describe.skipIf(!HAS_SHARED)('session digests of the real transcripts', () => {
  for (const session of SESSIONS) {
    describe(session.slice(0, 8), () => {
      it('equals the digest of a JSON.parse of every line', async () => {
        expect(await digestOf(session)).toEqual(referenceDigest(session))
      })

      it('reads the sub-agent and compaction files and cites records on every bullet', async () => {
        const digest = await digestOf(session)
        // Named relative to the session's own folder, as the reference digest cites them.
        expect(digest.files.some((name) => name.startsWith('subagents/agent-acompact-'))).toBe(true)
        expect(digest.files.filter((name) => name.startsWith('subagents/')).length).toBe(2)
        const markdown = renderSessionDigest(digest)
        const bullets = markdown.split('\n').filter((line) => line.startsWith('- '))
        expect(bullets.length).toBeGreaterThan(10)
        for (const bullet of bullets) {
          expect(bullet).toMatch(/ <!-- src: [0-9a-f]{8}(?:, [0-9a-f]{8})* -->$/)
          expect(bullet).not.toMatch(/^- [-*+] /) // no double bullets
        }
        expect(countTokens(markdown)).toBeLessThanOrEqual(2500)
      })

      it('has no orphan heading and no sentence cut mid-way', async () => {
        const lines = renderSessionDigest(await digestOf(session)).split('\n')
        for (const [index, line] of lines.entries()) {
          if (line.startsWith('## '))
            expect(lines[index + 1], `under ${line}`).toMatch(/^(?:- |\*\*)/)
          else if (/^\*\*[^*]+\*\*$/.test(line))
            expect(lines[index + 1], `under ${line}`).toMatch(/^- /)
        }
        for (const line of lines.filter((entry) => entry.startsWith('- '))) {
          const text = line.replace(/ <!-- src: .* -->$/, '')
          expect(text, line).toMatch(/[.!?)`"'…:\]]$|\(new\)$|\d$|\w$/)
        }
      })
    })
  }

  it('258c7280: final figures and closed work, nothing finished filed as open', async () => {
    const digest = await digestOf(SESSIONS[0] as string)
    const done = digest.done.map((entry) => entry.text).join('\n')
    expect(done).toContain('87 tests, 0 failures')
    expect(done).toContain('`spotter-gqc`')
    expect(digest.open.map((entry) => entry.text).join('\n')).not.toMatch(/gqc/)
    // The compaction summary's own gotchas are used.
    expect(digest.gotchas.map((entry) => entry.text).join('\n')).toContain('mix compile --force')
    expect(digest.commits.map((entry) => entry.text).join('\n')).toContain('a230dbf')
  })

  it('8463c716: the bug filed near the end stays open', async () => {
    const digest = await digestOf(SESSIONS[2] as string)
    expect(digest.open.map((entry) => entry.text).join('\n')).toContain('spotter-fum.5')
  })

  it('leaves out what lies at or before `since`', async () => {
    const full = await digestOf(SESSIONS[0] as string)
    const late = await digestOf(SESSIONS[0] as string, '2026-02-11T21:30:00Z')
    expect((late.startedAt ?? '') > '2026-02-11T21:30:00Z').toBe(true)
    expect(late.commits.length).toBeLessThan(full.commits.length)
    expect(late.preferences.map((entry) => entry.text).join('\n')).not.toContain(
      'Implement spotter-gqc',
    )
  })

  it('reports a damaged transcript as unreadable and a missing one as missing', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'somnus-digest-'))
    const damaged = join(folder, 'damaged.jsonl')
    const lines = readFileSync(join(TRANSCRIPTS_DIR, `${SESSIONS[1]}.jsonl`), 'utf8').split('\n')
    writeFileSync(
      damaged,
      lines
        .map((line, index) => (index % 3 === 0 ? line.slice(0, line.length / 2) : line))
        .join('\n'),
    )
    const result = await readSessionDigest(damaged)
    expect(result).toHaveProperty('unreadable')
    expect(String((result as { unreadable: string }).unreadable)).toContain('damaged')
    writeFileSync(join(folder, 'binary.jsonl'), Buffer.from([0, 1, 2, 255, 10, 254, 10]))
    expect(await readSessionDigest(join(folder, 'binary.jsonl'))).toHaveProperty('unreadable')
    expect(await readSessionDigest(join(folder, 'absent.jsonl'))).toEqual({ missing: true })
    // One cut-off last line (Claude Code still writing) is skipped, not fatal.
    mkdirSync(join(folder, 'cut'))
    const cut = join(folder, 'cut', `${SESSIONS[1]}.jsonl`)
    copyFileSync(join(TRANSCRIPTS_DIR, `${SESSIONS[1]}.jsonl`), cut)
    writeFileSync(cut, `${readFileSync(cut, 'utf8')}{"type":"user","mess`)
    const partial = await readSessionDigest(cut)
    expect(partial).toHaveProperty('digest')
    expect((partial as { skippedLines: number }).skippedLines).toBe(1)
  })
})
