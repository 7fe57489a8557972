import { describe, expect, it } from 'vitest'
import type { Observation } from '../../../engine/core/model-results.ts'
import { parseMarkdown, renderMarkdown } from '../markdown/markdown-document.ts'
import { freshSleepState, type SleepState } from '../sleep-state.ts'
import { lineCount } from './archive-overflow.ts'
import { planSleepRun, type SleepRunInput } from './plan-sleep-run.ts'
import type { UnitKind } from './route-observation.ts'

const NOW = new Date('2026-11-21T12:00:00Z')
const EPOCH = '2026-11-21T11:59:00.000Z'

const MEMORY = `---
name: Memory
updated: 2026-11-01
---
# Memory

## Active Memory
<!-- newest first -->
- The API runs on port 3456 <!-- sources: s0 -->

## Technical Decisions

## Known Issues
`

function stateWith(partial: Partial<SleepState>): SleepState {
  return { ...freshSleepState(), ...partial }
}

function input(partial: Partial<SleepRunInput> & { observations?: Observation[] }): SleepRunInput {
  return {
    now: NOW,
    state: stateWith({}),
    observations: [],
    unitKinds: new Map<string, UnitKind>(),
    model: 'extractive',
    files: new Map([
      ['core/1.user.md', '# User\n'],
      ['core/2.memory.md', MEMORY],
      ['core/CHANGELOG.json', '[]\n'],
    ]),
    tasks: [],
    features: [],
    ...partial,
  }
}

const fileAfter = (plan: ReturnType<typeof planSleepRun>, path: string) =>
  plan.files.find((file) => file.path === path)?.after

describe('planSleepRun', () => {
  it('plans nothing, and no file, when there is nothing to consolidate', () => {
    const plan = planSleepRun(input({}))
    expect(plan.empty).toBe(true)
    expect(plan.files).toEqual([])
  })

  it('puts critical bookmarks first, citing their ids and the model', () => {
    const state = stateWith({
      bookmarks: [
        {
          id: 'bm_low',
          message: 'Tried a faster JSON parser for stats',
          salience: 1,
          created_at: '2026-11-21T10:00:00.000Z',
          session_id: null,
          task_slug: null,
        },
        {
          id: 'bm_hot',
          message: 'Never store API keys in the sleep ledger',
          salience: 3,
          created_at: '2026-11-21T09:00:00.000Z',
          session_id: null,
          task_slug: null,
        },
      ],
    })
    const observations: Observation[] = [
      { priority: 'GRN', text: 'Tried a faster JSON parser for stats', sources: ['bm_low'] },
      { priority: 'RED', text: 'Never store API keys in the sleep ledger', sources: ['bm_hot'] },
    ]
    const kinds = new Map<string, UnitKind>([
      ['bm_low', 'bookmark'],
      ['bm_hot', 'bookmark'],
    ])
    const plan = planSleepRun(input({ state, observations, unitKinds: kinds }))
    const memory = fileAfter(plan, 'core/2.memory.md') ?? ''
    const active = parseMarkdown(memory).sections.find(
      (section) => section.heading === 'Active Memory',
    )
    const items = active?.lines.filter((line) => line.startsWith('- ')) ?? []
    expect(items[0]).toBe(
      '- Never store API keys in the sleep ledger <!-- sources: bm_hot; extractive 2026-11-21 -->',
    )
    expect(items[1]).toContain('faster JSON parser')
    expect(items[2]).toContain('port 3456')
    expect(plan.bookmarkIds).toEqual(['bm_low', 'bm_hot'])
    expect(memory).toContain('updated: 2026-11-21')
  })

  it('files user preferences from the user, not from the assistant, and decisions with a trigger', () => {
    const observations: Observation[] = [
      { priority: 'YLW', text: 'I prefer tabs over spaces in Go code', sources: ['u1'] },
      { priority: 'YLW', text: 'I will always run the linter before committing', sources: ['a1'] },
      {
        priority: 'RED',
        text: 'When deploying to staging, we decided to run migrations first',
        sources: ['a2'],
      },
    ]
    const kinds = new Map<string, UnitKind>([
      ['u1', 'user'],
      ['a1', 'assistant'],
      ['a2', 'assistant'],
    ])
    const plan = planSleepRun(
      input({ observations, unitKinds: kinds, state: stateWith({ sessions: [session('s1', 0)] }) }),
    )
    expect(fileAfter(plan, 'core/1.user.md')).toContain(
      '## Preferences\n- I prefer tabs over spaces in Go code <!-- sources: u1;',
    )
    expect(fileAfter(plan, 'core/1.user.md')).not.toContain('linter')
    const memory = parseMarkdown(fileAfter(plan, 'core/2.memory.md') ?? '')
    const decisions = memory.sections.find((section) => section.heading === 'Technical Decisions')
    expect(decisions?.lines.join('\n')).toContain('run migrations first')
    expect(plan.triggers).toEqual([
      {
        when: 'deploying,staging',
        remind: 'When deploying to staging, we decided to run migrations first',
        source: 'a2',
      },
    ])
    expect(plan.counts.preferences).toBe(1)
  })

  it('does not repeat what the file already says, nor a trigger that exists', () => {
    const observations: Observation[] = [
      { priority: 'RED', text: 'The API runs on port 3456.', sources: ['x1'] },
      { priority: 'RED', text: 'Before releasing, we decided to tag the commit', sources: ['x2'] },
    ]
    const state = stateWith({
      triggers: [
        {
          id: 't1',
          when: 'releasing',
          remind: 'Before releasing, we decided to tag the commit',
          source: null,
          created_at: EPOCH,
          fired_count: 0,
          max_fires: 3,
        },
      ],
    })
    const first = planSleepRun(input({ observations, state }))
    expect(fileAfter(first, 'core/2.memory.md')?.match(/port 3456/g)).toHaveLength(1)
    expect(first.triggers).toEqual([])
    // Planning again over the result adds nothing: the idempotence `sleep run` promises.
    const files = new Map(input({}).files)
    for (const file of first.files) files.set(file.path, file.after)
    const second = planSleepRun(input({ observations, state, files }))
    expect(second.files).toEqual([])
  })

  it('replaces a line the user corrects, but not one an agent restates with another value', () => {
    const files = new Map(input({}).files)
    files.set(
      'core/2.memory.md',
      `${MEMORY.trimEnd()}\n- The API runs on port 8080 in staging <!-- sources: s9 -->\n`,
    )
    const observations: Observation[] = [
      { priority: 'RED', text: 'The API runs on port 4000', sources: ['u1'] },
      { priority: 'RED', text: 'The API runs on port 9090 in staging', sources: ['a1'] },
    ]
    const kinds = new Map<string, UnitKind>([
      ['u1', 'user'],
      ['a1', 'assistant'],
    ])
    const plan = planSleepRun(input({ observations, unitKinds: kinds, files }))
    const memory = fileAfter(plan, 'core/2.memory.md') ?? ''
    expect(memory).not.toContain('port 3456')
    expect(memory).toContain('- The API runs on port 4000 <!-- sources: u1, s0; extractive')
    expect(memory).toContain('port 8080 in staging')
    expect(memory).toContain('port 9090 in staging')
    expect(fileAfter(plan, 'knowledge/2.memory-archive.md')).toContain(
      '## Active Memory (superseded 2026-11-21)\n- The API runs on port 3456 <!-- sources: s0 -->',
    )
  })

  it('adds one changelog entry per session with changes, once', () => {
    const state = stateWith({
      sessions: [
        session('s1', 4, 'Fixed the race in hook stop. Also tidied tests.'),
        session('s2', 0, 'Read docs.'),
      ],
    })
    const plan = planSleepRun(input({ state }))
    const changelog = JSON.parse(fileAfter(plan, 'core/CHANGELOG.json') ?? '[]')
    expect(changelog).toEqual([
      { date: '2026-11-20', type: 'fix', message: 'Fixed the race in hook stop.', sources: ['s1'] },
    ])
    const again = planSleepRun(
      input({
        state,
        files: new Map([...input({}).files, ['core/CHANGELOG.json', JSON.stringify(changelog)]]),
      }),
    )
    expect(again.files.map((file) => file.path)).not.toContain('core/CHANGELOG.json')
  })

  it('leaves a changelog that is not a JSON array alone', () => {
    const state = stateWith({ sessions: [session('s1', 4, 'Fixed it.')] })
    const files = new Map([...input({}).files, ['core/CHANGELOG.json', '{ broken']])
    const plan = planSleepRun(input({ state, files }))
    expect(plan.files.map((file) => file.path)).not.toContain('core/CHANGELOG.json')
  })

  it('keeps a core file within 200 lines by archiving its oldest entries, losing none', () => {
    const old = Array.from(
      { length: 230 },
      (_, index) => `- old fact number ${index} <!-- sources: s${index} -->`,
    )
    const big = MEMORY.replace('- The API runs on port 3456 <!-- sources: s0 -->', old.join('\n'))
    const observations: Observation[] = [
      { priority: 'RED', text: 'Deadline for the beta is 2026-12-01', sources: ['n1'] },
    ]
    const plan = planSleepRun(
      input({ observations, files: new Map([...input({}).files, ['core/2.memory.md', big]]) }),
    )
    const memory = fileAfter(plan, 'core/2.memory.md') ?? ''
    const archive = fileAfter(plan, 'knowledge/2.memory-archive.md') ?? ''
    expect(lineCount(memory)).toBeLessThanOrEqual(200)
    expect(memory).toContain('Deadline for the beta')
    expect(memory).toContain('old fact number 0 ')
    for (const line of old) expect(memory.includes(line) || archive.includes(line)).toBe(true)
    expect(archive).toContain('old fact number 229 ')
    expect(plan.counts.lines_archived).toBeGreaterThan(0)
  })

  it('folds completed tasks into their feature PRD once', () => {
    const task = {
      path: 'state/login-form.md',
      text: '---\nname: Login form\nstatus: completed\nfeature: auth\n---\n## Why\nUsers sign in.\n\n## Log\n- 2026-11-20: Shipped with rate limiting\n',
    }
    const feature = {
      path: 'core/features/auth.md',
      text: '---\nid: auth\nstatus: active\n---\n# Auth\n\n## Changelog\n<!-- newest first -->\n',
    }
    const files = new Map([
      ...input({}).files,
      [task.path, task.text],
      [feature.path, feature.text],
    ])
    const plan = planSleepRun(input({ tasks: [task], features: [feature], files }))
    const prd = fileAfter(plan, 'core/features/auth.md') ?? ''
    expect(prd).toContain(
      '### 2026-11-21 - Login form\n- 2026-11-20: Shipped with rate limiting <!-- sources: task:login-form -->',
    )
    const folded = fileAfter(plan, 'state/login-form.md') ?? ''
    expect(folded).toContain('consolidated: 2026-11-21')
    const again = planSleepRun(
      input({ tasks: [{ ...task, text: folded }], features: [{ ...feature, text: prd }], files }),
    )
    expect(again.counts.features_updated).toBe(0)
    expect(renderMarkdown(parseMarkdown(prd))).toBe(prd)
  })
})

function session(id: string, changes: number, message = 'Did work.') {
  return {
    session_id: id,
    transcript_path: null,
    stopped_at: '2026-11-20T18:00:00.000Z',
    last_assistant_message: message,
    change_count: changes,
    tool_count: changes,
    score: changes > 0 ? 1 : 0,
    task_slugs: [],
  }
}

describe('planSleepRun keeps the picture small', () => {
  it('skips the agent narrating its next step, but not the same words from the user', () => {
    const observations: Observation[] = [
      { priority: 'YLW', text: 'Let me check the tests before I commit', sources: ['a1'] },
      { priority: 'YLW', text: 'Now I need to update the layout:', sources: ['a2'] },
      { priority: 'YLW', text: '| `af81c43` | gqc.4 | Added 12 tests |', sources: ['a4'] },
      { priority: 'RED', text: 'The release is blocked by a failing migration', sources: ['a3'] },
    ]
    const kinds = new Map<string, UnitKind>([
      ['a1', 'assistant'],
      ['a2', 'assistant'],
      ['a3', 'assistant'],
    ])
    const memory =
      fileAfter(planSleepRun(input({ observations, unitKinds: kinds })), 'core/2.memory.md') ?? ''
    expect(memory).not.toContain('check the tests')
    expect(memory).not.toContain('update the layout')
    expect(memory).not.toContain('af81c43')
    expect(memory).toContain('The release is blocked by a failing migration')
  })

  it(`adds at most ${8} entries to a section per sleep, strongest first, bookmarks always`, () => {
    const facts = [
      'Fact 0 the billing service retries webhooks three times',
      'Fact 1 staging database snapshots run nightly at 02:00',
      'Fact 2 the mobile client caches feature flags for ten minutes',
      'Fact 3 invoices render through wkhtmltopdf inside docker',
      'Fact 4 search indexing lags writes by roughly thirty seconds',
      'Fact 5 oauth tokens for partners expire after ninety days',
      'Fact 6 the analytics export goes to bigquery every hour',
      'Fact 7 image uploads are capped at twenty megabytes',
      'Fact 8 email templates live in a separate repository',
      'Fact 9 rate limits differ between free and paid plans',
      'Fact 10 the legacy cron host retires in january',
      'Fact 11 translations sync from crowdin on merge',
    ]
    const observations: Observation[] = facts.map((text, index) => ({
      priority: index < 3 ? 'RED' : 'YLW',
      text,
      sources: [`a${index}`],
    }))
    observations.push({
      priority: 'GRN',
      text: 'Bookmarked: the staging URL moved',
      sources: ['bm_1'],
    })
    const state = stateWith({
      bookmarks: [
        {
          id: 'bm_1',
          message: 'x',
          salience: 1,
          created_at: EPOCH,
          session_id: null,
          task_slug: null,
        },
      ],
    })
    const kinds = new Map<string, UnitKind>([['bm_1', 'bookmark']])
    const plan = planSleepRun(input({ observations, state, unitKinds: kinds }))
    const memory = fileAfter(plan, 'core/2.memory.md') ?? ''
    const added = memory.split('\n').filter((line) => line.includes('extractive 2026-11-21'))
    expect(added).toHaveLength(9)
    expect(memory).toContain('staging URL moved')
    expect(memory).toContain('Fact 0 ')
    expect(memory).not.toContain('Fact 11 ')
  })
})
