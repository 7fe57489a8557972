import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bigInput, core, input } from '../../../../test/support/snapshot-input.ts'
import { fitToBudget, formText, SECTION_SEPARATOR } from './budget.ts'
import { draftSnapshotSections, renderSnapshot, SNAPSHOT_HEADER } from './render-snapshot.ts'
import type { SnapshotInput } from './snapshot-types.ts'

const headingsOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3).replace(/ \(.*$/, ''))

describe('renderSnapshot', () => {
  it("puts every section in seed 001's order, each in full when there is room", () => {
    const result = renderSnapshot(
      input(
        {},
        {
          triggers: [
            {
              id: 'tr_1',
              when: 'auth',
              remind: 'Refresh first',
              source: null,
              created_at: 'x',
              fired_count: 0,
              max_fires: 3,
            },
          ],
          bookmarks: [
            {
              id: 'bm_1',
              message: 'Chose JWT',
              salience: 3,
              created_at: 'x',
              session_id: null,
              task_slug: null,
            },
          ],
        },
      ),
    )
    expect(result.text.startsWith(`${SNAPSHOT_HEADER}\n\n## Soul`)).toBe(true)
    expect(headingsOf(result.text)).toEqual([
      'Soul',
      'User',
      'Memory',
      'Extended Core Files',
      'Active Tasks',
      'Bookmarks',
      'Contextual Reminders',
      'Sleep State',
      'Recent Changelog',
      'Latest Release',
      'Features',
      'Knowledge Index',
      'Warm Knowledge',
      'Pinned Knowledge',
    ])
    expect(result.sections.every((section) => section.form === 'full')).toBe(true)
    expect(result.text).not.toContain('old-work')
    expect(result.text).toContain(
      '- **fix-auth** (active, updated 2026-02-20, tags: auth)\n  Why: Because fix-auth matters.',
    )
    expect(result.text).toContain('- *** Chose JWT')
    expect(result.text).toContain('- Debt: 0 (Alert)')
    expect(result.firedTriggerIds).toEqual(['tr_1'])
  })

  it('marks stale knowledge and fills the warm tier by recency and task tags', () => {
    const result = renderSnapshot(
      input({}, { knowledge_access: { deploy: { last_accessed: '2026-02-28', count: 2 } } }),
    )
    expect(result.text).toContain(
      '- **ancient** (_agent_context/knowledge/ancient.md): First paragraph of ancient. (stale: never read)',
    )
    expect(result.text).not.toMatch(/\*\*jwt\*\*.*stale/)
    const warm = result.text.split('## Warm Knowledge')[1]?.split('## ')[0] ?? ''
    expect(warm).toContain('- **jwt**: First paragraph of jwt.\n')
    expect(warm).not.toContain('ancient')
    expect(warm).not.toContain('deploy') // pinned notes load in full below, not twice
    expect(result.text).toContain('### Note deploy (_agent_context/knowledge/deploy.md)')
  })

  it('fires only live triggers whose keywords match tasks, tags or bookmarks', () => {
    const trigger = (id: string, when: string, fired = 0) => ({
      id,
      when,
      remind: `r ${id}`,
      source: null,
      created_at: 'x',
      fired_count: fired,
      max_fires: 3,
    })
    const result = renderSnapshot(
      input(
        {},
        {
          triggers: [
            trigger('by-tag', 'AUTH'),
            trigger('by-name', 'deploy, fix'),
            trigger('by-bookmark', 'postgres'),
            trigger('expired', 'auth', 3),
            trigger('no-match', 'kubernetes'),
          ],
          bookmarks: [
            {
              id: 'b',
              message: 'Moved to PostgreSQL 16',
              salience: 1,
              created_at: 'x',
              session_id: null,
              task_slug: null,
            },
          ],
        },
      ),
    )
    expect(result.firedTriggerIds).toEqual(['by-tag', 'by-name', 'by-bookmark'])
    expect(result.text).toContain('- When "AUTH": r by-tag')
    expect(result.text).not.toContain('r expired')
  })

  it('never exceeds the budget, even for a brain of 1,000 sessions, 300 bookmarks and 100 notes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2_000, max: 20_000 }),
        fc.integer({ min: 1, max: 4 }),
        (budget, headSize) => {
          const result = renderSnapshot(bigInput(budget, headSize))
          expect(result.text.length).toBeLessThanOrEqual(budget)
          expect(
            result.sections.reduce((sum, section) => sum + section.chars, 0),
          ).toBeLessThanOrEqual(budget)
        },
      ),
      { numRuns: 40 },
    )
  })

  it('only demotes, never cuts: every output line is a whole line of some rendered section', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2_000, max: 20_000 }),
        fc.integer({ min: 1, max: 4 }),
        (budget, headSize) => {
          const data = bigInput(budget, headSize)
          const known = new Set([SNAPSHOT_HEADER, ''])
          for (const draft of draftSnapshotSections(data)) {
            for (const text of [draft.full, draft.summary, draft.line])
              for (const line of text.split('\n')) known.add(line)
          }
          const result = renderSnapshot(data)
          for (const line of result.text.split('\n')) expect(known.has(line)).toBe(true)
          const forms = result.sections.map((section) => section.form)
          expect(forms.filter((form) => form !== 'full').length).toBeGreaterThan(0)
        },
      ),
      { numRuns: 25 },
    )
  })

  it('shows what it would if every full form were rendered whole', () => {
    // The reference renders every full form to the end, then fits them as renderSnapshot does.
    const reference = (data: SnapshotInput) => {
      const drafts = draftSnapshotSections(data, Number.POSITIVE_INFINITY)
      const forms = fitToBudget(drafts, data.budgetChars, SNAPSHOT_HEADER.length)
      const parts = drafts.map((draft, index) => formText(draft, forms[index] ?? 'omitted'))
      return [SNAPSHOT_HEADER, ...parts.filter((part) => part !== '')].join(SECTION_SEPARATOR)
    }
    fc.assert(
      fc.property(
        fc.integer({ min: 2_000, max: 40_000 }),
        fc.integer({ min: 1, max: 4 }),
        (budget, headSize) => {
          const data = bigInput(budget, headSize)
          expect(renderSnapshot(data).text).toBe(reference(data))
        },
      ),
      { numRuns: 40 },
    )
  })

  it('keeps soul, user and memory whole while anything else can give way', () => {
    const full = renderSnapshot(bigInput(1_000_000)).sections
    const head = full.filter((section) => ['Soul', 'User', 'Memory'].includes(section.name))
    const headChars = head.reduce((sum, section) => sum + section.chars + 2, SNAPSHOT_HEADER.length)
    const result = renderSnapshot(bigInput(headChars + 100))
    const byName = Object.fromEntries(
      result.sections.map((section) => [section.name, section.form]),
    )
    expect([byName.Soul, byName.User, byName.Memory]).toEqual(['full', 'full', 'full'])
    expect(byName['Pinned Knowledge']).not.toBe('full')
    expect(result.text).toContain('- soul fact 29:')
  })

  it('demotes the least important sections first', () => {
    const result = renderSnapshot(bigInput(12_000))
    const rank = { full: 0, summary: 1, line: 2, omitted: 3 }
    const form = (name: string) =>
      rank[result.sections.find((section) => section.name === name)?.form ?? 'omitted']
    expect(form('Active Tasks')).toBeLessThanOrEqual(form('Knowledge Index'))
    expect(form('Sleep State')).toBeLessThanOrEqual(form('Pinned Knowledge'))
    expect(result.text).toContain('run `somnus sleep status`')
  })

  it('demotes the head too when it alone is over budget, and still fits', () => {
    const result = renderSnapshot(bigInput(2_000, 4))
    expect(result.text.length).toBeLessThanOrEqual(2_000)
    expect(result.sections.find((section) => section.name === 'Memory')?.form).not.toBe('full')
    expect(result.text).toContain('## Soul')
  })

  it('counts only reminders the text shows as fired', () => {
    const data = bigInput(2_000, 4)
    const result = renderSnapshot(data)
    const reminders = result.sections.find((section) => section.name === 'Contextual Reminders')
    if (reminders?.form === 'line' || reminders?.form === 'omitted')
      expect(result.firedTriggerIds).toEqual([])
    for (const id of result.firedTriggerIds)
      expect(result.text).toContain(`Remember ${id.slice(3)}`)
  })

  it('returns nothing rather than a cut header when the budget is tiny', () => {
    expect(renderSnapshot(input({ budgetChars: 10 })).text).toBe('')
    expect(renderSnapshot(input({ budgetChars: SNAPSHOT_HEADER.length })).text).toBe(
      SNAPSHOT_HEADER,
    )
  })

  it('shows a malformed changelog as a problem line instead of failing', () => {
    const result = renderSnapshot(
      input({ changelog: { problem: 'core/CHANGELOG.json is not valid JSON: fix it' } }),
    )
    expect(result.text).toContain(
      '## Recent Changelog\n\n- core/CHANGELOG.json is not valid JSON: fix it',
    )
  })
})

describe('renderSnapshot spends its budget on memory', () => {
  const memory = core(
    'Memory',
    [
      '# Memory',
      '',
      '## Active Memory',
      '',
      '<!-- LIFO: newest entry at top -->',
      '',
      '- The API listens on 3456 <!-- sources: session:258c7280, 1a2252ee; extractive 2026-02-11 -->',
      '',
      '## Technical Decisions',
      '',
      '- (Key technical choices and why they were made)',
      '',
      '## Known Issues',
      '',
      '- (Open bugs, tech debt, workarounds and their status)',
    ].join('\n'),
  )

  it('shows entries without their provenance, and no placeholder or heading left empty', () => {
    const text = renderSnapshot(input({ head: { soul: null, user: null, memory } })).text
    expect(text).toContain('- The API listens on 3456\n')
    expect(text).not.toContain('sources:')
    expect(text).not.toContain('(Key technical choices')
    expect(text).not.toContain('### Technical Decisions')
    expect(text).not.toContain('### Known Issues')
    expect(text).toContain('### Active Memory')
  })

  it('lists the most recent session digests by their one-liners, newest first', () => {
    const digests = {
      recent: [
        { slug: '2026-02-12-4d5611e5', summary: 'Closed epic spotter-4te (6 tasks).' },
        { slug: '2026-02-11-258c7280', summary: 'Built the review page.' },
      ],
      total: 7,
    }
    const text = renderSnapshot(input({ digests })).text
    const section = text.slice(text.indexOf('## Recent Sessions'))
    expect(section).toMatch(
      /^## Recent Sessions \(digests in _agent_context\/knowledge\/sessions\/\)\n\n- 2026-02-12-4d5611e5: Closed epic spotter-4te \(6 tasks\)\.\n- 2026-02-11-258c7280: Built the review page\.\n- … 5 more session digests/,
    )
    expect(headingsOf(text).indexOf('Recent Sessions')).toBe(headingsOf(text).indexOf('Memory') + 1)
  })

  it("does not repeat a digest's day, names its branch once, and drops a detached HEAD", () => {
    const digests = {
      recent: [
        {
          slug: '2026-02-12-4d5611e5',
          summary: '2026-02-12 spotter-dov: Closed epic spotter-dov.',
        },
        { slug: '2026-02-11-258c7280', summary: '2026-02-11 HEAD: Built the review page.' },
        { slug: '2026-02-10-8463c716', summary: '2026-01-01 main: Older day, kept as said.' },
      ],
      total: 3,
    }
    const text = renderSnapshot(input({ digests })).text
    expect(text).toContain('- 2026-02-12-4d5611e5 (spotter-dov): Closed epic spotter-dov.\n')
    expect(text).toContain('- 2026-02-11-258c7280: Built the review page.\n')
    expect(text).toContain('- 2026-02-10-8463c716: 2026-01-01 main: Older day, kept as said.')
  })
})
