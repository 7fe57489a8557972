import { describe, expect, it } from 'vitest'
import {
  FIXTURE_SESSION,
  fixtureDigest,
  fixtureItem,
} from '../../../../test/support/session-digest-fixture.ts'
import { freshSleepState, type SessionRecord, SessionRecordSchema } from '../sleep-state.ts'
import { changelogEntries } from './changelog-entries.ts'
import { sessionOneLiner } from './digest-document.ts'
import {
  belongsInCore,
  digestEntries,
  entryText,
  resolvedIssues,
  sameIssue,
  wrapUpLessons,
} from './digest-entries.ts'
import { planSleepRun } from './plan-sleep-run.ts'

const SESSION = FIXTURE_SESSION
const digest = fixtureDigest
const item = fixtureItem

describe('digestEntries', () => {
  it('routes by kind, and lets into the core files only what belongs there', () => {
    const entries = digestEntries([
      digest({
        open: [item('- `billing-7.2` is open: the CSV export rounds half-up', 'aa000001')],
        preferences: [
          item('"Add the export. I always want a test next to every endpoint."', 'aa000002'),
          item('"continue"', 'aa000003'),
        ],
        decisions: [
          item('Round half-even, as the tax office does.', 'aa000004'),
          item("Let me check the tests first, I'll decide after.", 'aa000005'),
        ],
        gotchas: [
          item('`RangeError: precision` → pass 2 digits, not 20', 'aa000006'),
          item('`TypeError: x is undefined` (reported by a hook after an edit)', 'aa000007'),
        ],
      }),
    ])
    expect(entries.map((entry) => [entry.destination.section, entry.text])).toEqual([
      ['Known Issues', '`billing-7.2` is open: the CSV export rounds half-up'],
      ['Preferences', 'I always want a test next to every endpoint.'],
      ['Technical Decisions', 'Round half-even, as the tax office does.'],
      ['Gotchas', '`RangeError: precision` → pass 2 digits, not 20'],
    ])
    expect(entries[0]?.sources).toEqual(['session:11111111', 'aa000001'])
    expect(entries[1]?.authoritative).toBe(true)
  })

  it('writes one line per entry: no bullet of its own, no escaped newlines, no cut sentence', () => {
    expect(entryText('  - - 1. item\nnext ')).toBe('item next')
    expect(entryText('`Failed:\\n\\n[FORMAT] x`')).toBe('`Failed: [FORMAT] x`')
    const [cut] = digestEntries([
      digest({ decisions: [item('Use ETS for tokens. They live 120 s and are deleted…', 'a1')] }),
    ])
    expect(cut?.text).toBe('Use ETS for tokens.')
  })

  it('closes an open item that finished work names, and only that one', () => {
    const lines = [
      '- spotter-gqc.6: closing a review session is not implemented <!-- sources: s1 -->',
      '- The CSV export still rounds half-up <!-- sources: s2 -->',
    ]
    expect(
      resolvedIssues(lines, [item('Closed `spotter-gqc.6`: close review session', 'x')]),
    ).toEqual([lines[0]])
    expect(
      sameIssue('`spotter-fum.5` is open: drops agent_id', 'filed `spotter-fum.5`: a bug'),
    ).toBe(true)
    expect(sameIssue('the export is slow', 'the import is slow')).toBe(false)
  })
})

describe('planSleepRun with digests', () => {
  const memory = [
    '# Memory',
    '',
    '## Known Issues',
    '',
    '- spotter-gqc.6: closing a review session is not implemented <!-- sources: s1 -->',
    '',
  ].join('\n')
  const session: SessionRecord = SessionRecordSchema.parse({
    session_id: SESSION,
    transcript_path: `/t/${SESSION}.jsonl`,
    stopped_at: '2026-03-02T11:00:00Z',
    score: 2,
    change_count: 5,
    tool_count: 20,
    last_assistant_message: 'All done.',
  })
  const landing = digest({
    summary: item('Closed the review epic.', 'bb000001'),
    changes: [{ area: 'lib/', items: [item('`review.ex` (new)', 'bb000002')] }],
    commits: [item('`05fd186` feat: close review session (spotter-gqc.6)', 'bb000003')],
    open: [item('The launch hook was never tried by hand', 'bb000004')],
    done: [item('Closed `spotter-gqc.6`', 'bb000005')],
  })
  const plan = planSleepRun({
    now: new Date('2026-03-03T08:00:00Z'),
    state: { ...freshSleepState(), sessions: [session] },
    observations: [],
    unitKinds: new Map(),
    model: 'extractive',
    files: new Map([
      ['core/1.user.md', '# User\n'],
      ['core/2.memory.md', memory],
      ['core/CHANGELOG.json', '[]\n'],
    ]),
    tasks: [],
    features: [],
    digests: [{ digest: landing, text: '# the digest\n' }],
    existingDigests: ['2026-03-02-11111111'],
  })
  const planned = (path: string) => plan.files.find((file) => file.path === path)?.after ?? ''

  it('keeps the digest whole under a new dated name, and files only what is still open', () => {
    expect(planned('knowledge/sessions/2026-03-02-11111111-2.md')).toBe('# the digest\n')
    const memoryAfter = planned('core/2.memory.md')
    expect(memoryAfter).toContain(
      '- The launch hook was never tried by hand <!-- sources: session:11111111, bb000004; extractive 2026-03-03 -->',
    )
    expect(memoryAfter).not.toContain('spotter-gqc.6')
    expect(planned('knowledge/2.memory-archive.md')).toContain(
      '## Known Issues (resolved 2026-03-03)\n- spotter-gqc.6',
    )
  })

  it('says in the changelog what changed (the commits), not the closing formula', () => {
    expect(JSON.parse(planned('core/CHANGELOG.json'))).toEqual([
      {
        date: '2026-03-02',
        type: 'feat',
        message: 'feat: close review session (spotter-gqc.6)',
        sources: [SESSION, 'bb000003', 'bb000001'],
      },
    ])
    expect(plan.counts.digests).toBe(1)
  })
})

describe('wrapUpLessons', () => {
  /** A session the Stop hook booked with one change; its digest says the rest. */
  const session = SessionRecordSchema.parse({
    session_id: SESSION,
    transcript_path: null,
    stopped_at: '2026-03-02T11:00:00Z',
    last_assistant_message: null,
    change_count: 1,
    tool_count: 2,
    score: 1,
  })
  const closing = digest({
    summary: item(
      'Asked for: When you can, fix the login test; fixed the flaky login test by raising the timeout to 15 s. Known issue: CI machines are about 3x slower than laptops. Decided to keep the retry off. When adding endpoints, register them in src/routes.ts first. Known issue: the cache is cut sh…',
      's1',
    ),
    changes: [{ area: 'src/', items: [item('`login.test.ts`: timeout 15 s', 'f1')] }],
  })

  it('takes the known issues and rules the closing summary states, not the request or a cut sentence', () => {
    const lessons = wrapUpLessons(closing)
    expect(lessons.issues.map((lesson) => lesson.text)).toEqual([
      'CI machines are about 3x slower than laptops.',
    ])
    expect(lessons.rules.map((lesson) => lesson.text)).toEqual([
      'When adding endpoints, register them in src/routes.ts first.',
    ])
    const entries = digestEntries([closing])
    const known = entries.find((entry) => entry.destination.section === 'Known Issues')
    expect(known).toMatchObject({
      text: 'CI machines are about 3x slower than laptops.',
      sources: ['session:11111111', 's1'],
    })
    expect(entries.map((entry) => entry.destination.section)).toContain('Technical Decisions')
  })

  it('leaves lessons and decisions out of the changelog, which says what changed', () => {
    const [entry] = changelogEntries([session], [], [closing])
    expect(entry?.message).toBe('Fixed the flaky login test by raising the timeout to 15 s.')
    expect(entry?.type).toBe('fix')
    const added = digest({
      summary: item('Added GET /health in src/health.ts with a test beside it.', 's2'),
      changes: closing.changes,
    })
    expect(changelogEntries([session], [], [added])[0]?.type).toBe('feat')
  })

  it('names the files a session changed when its summary says no change', () => {
    // A deadline is not a change: before, "The caching work is due on 2026-12-15." was the entry.
    const note = (changes: { area: string; items: ReturnType<typeof item>[] }[]) =>
      changelogEntries(
        [session],
        [],
        [
          digest({
            summary: item(
              'Set out to write a design note on caching; the caching work is due on 2026-12-15.',
              's3',
            ),
            changes,
          }),
        ],
      )[0]?.message
    expect(note([{ area: 'docs/', items: [item('`caching.md` (new): Caching', 'f1')] }])).toBe(
      'Added docs/caching.md.',
    )
    expect(
      note([
        { area: 'docs/', items: [item('`caching.md` (new): Caching', 'f1')] },
        { area: './', items: [item('`README.md`, `package.json`', 'f2')] },
      ]),
    ).toBe('Changed docs/caching.md, README.md and package.json.')
    expect(note([{ area: 'src/', items: [item('`a.ts`, `b.ts`, `c.ts` and 4 more', 'f3')] }])).toBe(
      'Changed files in src/.',
    )
  })
})

describe('what earns a core line', () => {
  it('takes no refused tool call for a preference, and no sentence that leans on the one before', () => {
    expect(
      belongsInCore('preferences', 'The user rejected a TaskOutput call ({"task_id":"bd0"})'),
    ).toBe(false)
    expect(belongsInCore('preferences', 'Never push to main without a review')).toBe(true)
    expect(
      belongsInCore('decisions', 'But `mount_computers` is never called for that branch.'),
    ).toBe(false)
    expect(belongsInCore('decisions', 'Chose SQLite table rewrites for column changes.')).toBe(true)
  })
})

describe('sessionOneLiner', () => {
  it('says what came of the session in whole sentences, not the request that opened it', () => {
    const long = digest({
      branch: 'spotter-dov',
      summary: item(
        `Set out to work on bead spotter-dov; closed the spotter-dov epic: shared transcript components. ${'Every row renders the same way in both views. '.repeat(5)}`,
        's1',
      ),
      commits: [item('`64f1b9a` feat: unified transcript (spotter-dov)', 'c1')],
    })
    const line = sessionOneLiner(long)
    expect(
      line.startsWith(
        '2026-03-02 spotter-dov: Closed the spotter-dov epic: shared transcript components. Every row',
      ),
    ).toBe(true)
    expect(line).not.toContain('Asked')
    expect(line).not.toContain('…')
    expect(line.endsWith('. (1 commit)')).toBe(true)
    const table = digest({
      summary: item('Epic complete. All 4 tasks pushed: Commit · Task · Description.', 's3'),
    })
    expect(sessionOneLiner(table)).toBe('2026-03-02: Epic complete. All 4 tasks pushed.')
    expect(sessionOneLiner(digest({ summary: item('Set out to fix the login test.', 's2') }))).toBe(
      '2026-03-02: Set out to fix the login test.',
    )
  })
})
