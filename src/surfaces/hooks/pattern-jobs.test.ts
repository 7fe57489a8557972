import { describe, expect, it } from 'vitest'
import { DEFAULT_PATTERN_SETTINGS } from '../../brain/create-somnus-hooks.ts'
import { patternJobsFor, somnusCliEntry } from './pattern-jobs.ts'

const where = { cwd: '/project', hookLog: '/project/_agent_context/state/.somnus-hook.log' }
const input = { session_id: 's1', transcript_path: '/t/s1.jsonl', last_assistant_message: 'done' }

describe('pattern jobs from the hooks (seed 002 items 2, 7)', () => {
  it('PreCompact and SessionEnd always encode the session, detached', () => {
    for (const event of ['pre-compact', 'session-end'] as const) {
      expect(
        patternJobsFor(event, input, { ...where, settings: DEFAULT_PATTERN_SETTINGS }),
      ).toEqual([
        [
          'patterns',
          'encode',
          '/t/s1.jsonl',
          '--session',
          's1',
          '--project',
          '/project',
          '--hook-log',
          where.hookLog,
        ],
      ])
    }
  })

  it('Stop encodes about one turn in ten and consolidates one in twenty, reproducibly with a seed', () => {
    const settings = { ...DEFAULT_PATTERN_SETTINGS, gate_seed: 11 }
    const turns = Array.from({ length: 4000 }, (_, index) => ({
      ...input,
      last_assistant_message: `turn ${index}`,
    }))
    const jobs = turns.map((turn) => patternJobsFor('stop', turn, { ...where, settings }))
    const share = (verb: string) =>
      jobs.filter((list) => list.some((job) => job[1] === verb)).length / turns.length
    expect(share('encode')).toBeGreaterThan(0.08)
    expect(share('encode')).toBeLessThan(0.12)
    expect(share('consolidate')).toBeGreaterThan(0.035)
    expect(share('consolidate')).toBeLessThan(0.065)
    expect(turns.map((turn) => patternJobsFor('stop', turn, { ...where, settings }))).toEqual(jobs)
  })

  it('nothing when patterns are off, for a Stop a Stop hook forced, or without a session', () => {
    const always = {
      ...DEFAULT_PATTERN_SETTINGS,
      stop_encode_chance: 1,
      stop_consolidate_chance: 1,
    }
    expect(
      patternJobsFor('stop', input, { ...where, settings: { ...always, enabled: false } }),
    ).toEqual([])
    expect(
      patternJobsFor('stop', { ...input, stop_hook_active: true }, { ...where, settings: always }),
    ).toEqual([])
    expect(
      patternJobsFor('session-end', { ...input, session_id: null }, { ...where, settings: always }),
    ).toEqual([])
    expect(patternJobsFor('session-start', input, { ...where, settings: always })).toEqual([])
  })

  it('finds the CLI beside the hook entry', () => {
    expect(somnusCliEntry({}, '/opt/somnus/dist/hook.cjs')).toBe('/opt/somnus/bin/somnus.js')
    expect(somnusCliEntry({}, '/opt/somnus/bin/somnus.js')).toBe('/opt/somnus/bin/somnus.js')
    expect(somnusCliEntry({ SOMNUS_CLI_ENTRY: '/x.js' }, '/whatever')).toBe('/x.js')
    expect(somnusCliEntry({}, '/usr/lib/node_modules/vitest/vitest.mjs')).toBeNull()
  })
})
