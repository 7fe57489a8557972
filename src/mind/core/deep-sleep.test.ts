import { describe, expect, it } from 'vitest'
import { planDeepSleep } from './deep-sleep.ts'
import { resolveMindConfig } from './mind-config.ts'
import type { DreamEntry } from './mind-state.ts'
import { parseObservations, renderObservations } from './observations-file.ts'

const config = resolveMindConfig()
const NOW = new Date('2026-02-14T12:00:00Z')

function dream(id: string, t: string, priority: string, deep = false): DreamEntry {
  return {
    id,
    t,
    actions: 30,
    messages: 10,
    kind: 'full',
    reflection: `Reflection ${id}.`,
    priority,
    observations: 0,
    deep,
    lines: [1, 2],
    model: 'extractive',
    detail: [],
  }
}

const FILE = `# Observations

## 2026-02-11

<!-- dream d1 -->
RED 09:00 Banned from posting on the forum for 7 days
GRN 09:05 Node 20.20 installed in the container
YLW 09:10 PR #50 on janee waiting for review

## 2026-02-12

<!-- dream d2 -->
GRN 11:59 Disk has 40 GB free
YLW 12:30 The deploy script needs the staging token
## 2026-02-14

<!-- dream d3 -->
YLW 10:00 PR #50 on janee merged after review
GRN 11:00 Cache warmed in 3 seconds
`

describe('planDeepSleep', () => {
  const plan = planDeepSleep(
    FILE,
    [
      dream('d1', '2026-02-11T09:20:00Z', 'Get PR #50 reviewed'),
      dream('d2', '2026-02-12T12:40:00Z', 'Find the staging token'),
    ],
    dream('d3', NOW.toISOString(), 'Ship the release notes', true),
    NOW,
    config,
  )
  const kept = plan.observations

  it('keeps RED, however old', () => {
    expect(kept).toContain('RED 09:00 Banned from posting on the forum for 7 days')
  })

  it('archives GRN older than 48 hours and keeps younger GRN', () => {
    expect(kept).not.toContain('Node 20.20 installed')
    expect(kept).not.toContain('Disk has 40 GB free') // 48 h 1 min old
    expect(kept).toContain('GRN 11:00 Cache warmed in 3 seconds')
    expect(plan.archiveBlock).toContain(
      'GRN 09:05 Node 20.20 installed in the container  <!-- 2026-02-11; expired -->',
    )
  })

  it('archives a YLW line that a later line supersedes, keeps the others', () => {
    expect(kept).not.toContain('PR #50 on janee waiting for review')
    expect(kept).toContain('YLW 10:00 PR #50 on janee merged after review')
    expect(kept).toContain('YLW 12:30 The deploy script needs the staging token')
    expect(plan.archiveBlock).toMatch(
      /YLW 09:10 PR #50 on janee waiting for review {2}<!-- 2026-02-11; superseded -->/,
    )
    expect(plan.pruned).toEqual({ expired: 2, superseded: 1, restated: 0, closed: 0 })
  })

  it('moves every pruned line to the archive: nothing is lost', () => {
    const before = FILE.split('\n').filter((line) => /^(RED|YLW|GRN) /.test(line))
    const after = kept.split('\n').filter((line) => /^(RED|YLW|GRN) /.test(line))
    const archived = plan.archiveBlock
      .split('\n')
      .filter((line) => /^(RED|YLW|GRN) /.test(line))
      .map((line) => line.replace(/ {2}<!--.*-->$/, ''))
    expect([...after, ...archived].sort()).toEqual([...before].sort())
    expect(plan.kept).toBe(after.length)
  })

  it('keeps headers and dream markers, and changes nothing when there is nothing to prune', () => {
    expect(kept).toContain('<!-- dream d1 -->')
    expect(kept).toContain('## 2026-02-12')
    const again = planDeepSleep(kept, [], dream('d4', NOW.toISOString(), 'x', true), NOW, config)
    expect(again.observations).toBe(kept)
    expect(again.archiveBlock).toBe('')
  })

  it('lists the open items with their state, nothing done and no dream wishes', () => {
    expect(plan.priorities).toEqual([
      '[order, open since 2026-02-11 09:00] Banned from posting on the forum for 7 days',
    ])
    expect(plan.prioritiesText).toMatch(/^# Priorities\n/)
    expect(plan.prioritiesText).toContain(
      '1. [order, open since 2026-02-11 09:00] Banned from posting',
    )
    expect(plan.prioritiesText).not.toContain('No open items')
    const orders = Array.from(
      { length: 9 },
      (_, index) => `RED 09:0${index} Ada: never deploy service ${index} on a weekend`,
    ).join('\n')
    const many = planDeepSleep(
      `# Observations\n\n## 2026-02-14\n\n${orders}\n`,
      [],
      dream('x', NOW.toISOString(), 'Last goal', true),
      NOW,
      config,
    )
    expect(many.priorities).toHaveLength(5)
    // Newest first.
    expect(many.priorities[0]).toContain('service 8')
  })

  it('writes a diary entry with a marker', () => {
    expect(plan.diaryEntry).toContain('<!-- diary d3 -->')
    expect(plan.diaryEntry).toContain('Pruned 2 expired, 1 superseded and 0 restated observations')
    expect(plan.diaryEntry).toContain('Reflection d3.')
  })
})

describe('restated lines', () => {
  it('keep only the newest copy, RED included: the fact itself survives', () => {
    const file =
      '# Observations\n\n## 2026-02-14\n\nRED 09:00 Banned from the forum for 7 days\nYLW 09:30 Deploys go through staging\nRED 10:00 Banned from the forum for 7 days.\n'
    const plan = planDeepSleep(file, [], dream('r', NOW.toISOString(), 'x', true), NOW, config)
    expect(plan.observations.match(/Banned/g)).toHaveLength(1)
    expect(plan.observations).toContain('RED 10:00 Banned from the forum for 7 days.')
    expect(plan.archiveBlock).toContain(
      'RED 09:00 Banned from the forum for 7 days  <!-- 2026-02-14; restated -->',
    )
    expect(plan.pruned).toEqual({ expired: 0, superseded: 0, restated: 1, closed: 0 })
  })
})

describe('observations file', () => {
  it('renders a parsed file back to the same text', () => {
    expect(renderObservations(parseObservations(FILE))).toBe(FILE)
  })
})
