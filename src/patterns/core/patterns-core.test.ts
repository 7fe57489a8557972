import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../engine/core/frontmatter.ts'
import { withClaudeMdRules } from './claude-md-rules.ts'
import { placementOf } from './consolidate-plan.ts'
import { contradicts } from './encode-plan.ts'
import { generalizedText } from './generalize-text.ts'
import { MEMORY_MAX_BYTES, MEMORY_MAX_LINES, updateMemoryIndex } from './memory-index.ts'
import { type PatternEntry, parsePatternFile, renderPatternFile } from './pattern-entry.ts'
import { resolvePatternSettings } from './pattern-settings.ts'
import { createRandomGate } from './random-gate.ts'

const ENTRY: PatternEntry = {
  id: '2026-02-02-0badc0de',
  domain: 'rails',
  date: '2026-02-02',
  category: 'gotcha',
  tags: ['activerecord', 'n+1', 'polymorphic'],
  sources: ['session-1', 'uuid-1'],
  status: 'active',
  title: 'ActiveRecord includes with polymorphic associations',
  observation: 'N+1 queries persist despite using includes',
  details: 'Use `includes(:commentable)` with explicit polymorphic type',
  context: 'Polymorphic belongs_to with eager loading',
}

describe('pattern entries (seed 002 item 7)', () => {
  it("render in the seed's shape and read back the same", () => {
    const text = renderPatternFile({
      preamble: '',
      entries: [ENTRY, { ...ENTRY, id: 'b', status: 'superseded', supersededBy: 'c' }],
    })
    expect(text).toContain(
      '---\nid: 2026-02-02-0badc0de\ndomain: rails\ndate: 2026-02-02\ncategory: gotcha\ntags: [activerecord, n+1, polymorphic]\n',
    )
    expect(text).toContain(
      '### ActiveRecord includes with polymorphic associations\n\n- **Observation**: N+1',
    )
    expect(parseFrontmatter(text).data.tags).toEqual(['activerecord', 'n+1', 'polymorphic'])
    expect(parsePatternFile(text, 'rails').entries).toEqual([
      ENTRY,
      { ...ENTRY, id: 'b', status: 'superseded', supersededBy: 'c' },
    ])
  })

  it('keeps a hand-written preamble and reads the v0.4 heading without its date', () => {
    const file = parsePatternFile(
      '# Rails notes\n\n---\ndomain: rails\ndate: 2026-01-05\n---\n### 2026-01-05: Old style\n- **Observation**: a thing that happened\n- **Details**: what to do about it\n- **Context**: where it applies\n',
      'rails',
    )
    expect(file.preamble).toBe('# Rails notes\n')
    expect(file.entries[0]).toMatchObject({
      title: 'Old style',
      date: '2026-01-05',
      observation: 'a thing that happened',
    })
    expect(renderPatternFile(file).startsWith('# Rails notes\n\n---\n')).toBe(true)
  })
})

describe('contradictions (item 3)', () => {
  it('a correction on the same subject contradicts; the same lesson again or another subject does not', () => {
    const old = {
      ...ENTRY,
      observation: 'includes(:commentable) eager loads the polymorphic association',
    }
    const fix = {
      ...ENTRY,
      observation:
        'Actually includes(:commentable) does not eager load the polymorphic association; use preload',
    }
    expect(contradicts(fix, old, 0.6)).toBe(true)
    expect(contradicts(old, old, 0.95)).toBe(false)
    expect(contradicts(fix, old, 0.1)).toBe(false)
  })

  it('two gotchas telling the same problem agree, though one says "fails" and one "instead"', () => {
    const told = {
      ...ENTRY,
      title: 'LiveView test: missing secret_key_base',
      observation: 'LiveView test: missing secret_key_base',
      details: 'Fix: Added endpoint config with `secret_key_base` to `config/test.exs`.',
    }
    const again = {
      ...ENTRY,
      title: '`mix test` fails: no :secret_key_base configuration found',
      observation: '`mix test` fails with `no :secret_key_base configuration found`',
      details: 'Fix: add the endpoint config to test.exs instead of starting the endpoint.',
    }
    expect(contradicts(again, told, 0.6)).toBe(false)
    // A convention that negates an earlier one on the same subject does disagree.
    const rule = { ...ENTRY, category: 'convention' as const, observation: 'Squash commits' }
    const unrule = { ...rule, observation: 'Never squash commits' }
    expect(contradicts(unrule, rule, 0.6)).toBe(true)
  })
})

describe('placement (item 10)', () => {
  it('conventions and preferences go to CLAUDE.md, workarounds and gotchas to skills', () => {
    expect(
      placementOf([{ category: 'convention' }, { category: 'convention' }, { category: 'gotcha' }]),
    ).toBe('claude-md')
    expect(
      placementOf([
        { category: 'workaround' },
        { category: 'gotcha' },
        { category: 'user-preference' },
      ]),
    ).toBe('skill')
  })

  it('CLAUDE.md: only the marked section changes, a rule is never added twice', () => {
    const rule = {
      subject: 'always-return-result',
      text: 'Always return Result: services never raise',
      sources: ['general.md 2026-02-01 x'],
    }
    const once = withClaudeMdRules('# Mine\nkeep me\n', [rule])
    const twice = withClaudeMdRules(`${once}\nafter\n`, [
      { ...rule, sources: ['general.md 2026-02-02 y'] },
    ])
    expect(twice.startsWith('# Mine\nkeep me\n\n<!-- somnus:patterns:start')).toBe(true)
    expect(twice.match(/Always return Result/g)).toHaveLength(1)
    expect(twice.endsWith('<!-- somnus:patterns:end -->\n\nafter\n')).toBe(true)
  })
})

describe('MEMORY.md lines (items 5, 6)', () => {
  const skill = {
    name: 'git-force-add',
    path: '.claude/skills/git-force-add/SKILL.md',
    description: 'Git gotcha seen in 3 sessions',
  }

  it('adds one marked line, refreshes it in place, removes only marked lines', () => {
    const user = '# Memory\n- [User note](note.md) — mine <!-- not somnus -->\n'
    const added = updateMemoryIndex(user, [skill], new Set())
    expect(added.text).toBe(
      `${user}- [git-force-add](.claude/skills/git-force-add/SKILL.md) — Git gotcha seen in 3 sessions <!-- somnus:skill git-force-add -->\n`,
    )
    const again = updateMemoryIndex(
      added.text,
      [{ ...skill, description: 'now seen in 4' }],
      new Set(),
    )
    expect(again.added).toEqual([])
    expect(again.text).toContain('now seen in 4')
    const removed = updateMemoryIndex(
      `${again.text}${again.text.split('\n')[2]}\n`,
      [],
      new Set(['git-force-add']),
    )
    expect(removed.text).toBe(user)
    expect(removed.removed).toEqual(['git-force-add', 'git-force-add'])
  })

  it('never passes 200 lines or 25,000 bytes: the skill is skipped instead', () => {
    const full = `${Array.from({ length: MEMORY_MAX_LINES }, (_, index) => `- note ${index}`).join('\n')}\n`
    expect(updateMemoryIndex(full, [skill], new Set()).skipped).toEqual(['git-force-add'])
    const heavy = `${'x'.repeat(MEMORY_MAX_BYTES - 20)}\n`
    const result = updateMemoryIndex(heavy, [skill], new Set())
    expect(result.skipped).toEqual(['git-force-add'])
    expect(result.text).toBe(heavy)
  })
})

describe('gates and settings', () => {
  it('a seeded gate repeats its decisions and opens about as often as its chance', () => {
    const decide = (key: string) => createRandomGate({ seed: 7, key })('stop-encode', 0.1)
    const keys = Array.from({ length: 2000 }, (_, index) => `session-${index}`)
    const first = keys.map(decide)
    expect(keys.map(decide)).toEqual(first)
    const share = first.filter(Boolean).length / keys.length
    expect(share).toBeGreaterThan(0.07)
    expect(share).toBeLessThan(0.13)
    expect(createRandomGate({ seed: null, random: () => 0.5 })('x', 0.4)).toBe(false)
    expect(createRandomGate({ seed: null, random: () => 0.3 })('x', 0.4)).toBe(true)
  })

  it("defaults are seed 002's numbers; bad values name the key", () => {
    expect(resolvePatternSettings(undefined, {}, 'somnus.json')).toMatchObject({
      stop_encode_chance: 0.1,
      stop_consolidate_chance: 0.05,
      min_occurrences: 3,
      prune_days: 30,
    })
    expect(resolvePatternSettings({}, { SOMNUS_PATTERNS_GATE_SEED: '42' }, 's').gate_seed).toBe(42)
    expect(() => resolvePatternSettings({ stop_encode_chance: 2 }, {}, 'somnus.json')).toThrow(
      /"patterns.stop_encode_chance" must be a number from 0 to 1/,
    )
    expect(() => resolvePatternSettings({ nope: 1 }, {}, 'somnus.json')).toThrow(
      /"patterns.nope" is not a setting/,
    )
  })
})

describe('one statement for a lesson told by several sessions', () => {
  it('marks the few words that differ and keeps the rest as said', () => {
    expect(
      generalizedText([
        'Fix: `git push --set-upstream origin spotter-gqc`.',
        'Fix: `git push --set-upstream origin spotter-dov`.',
        'Fix: `git push --set-upstream origin spotter-gqc`.',
      ]),
    ).toBe('Fix: `git push --set-upstream origin spotter-<…>`.')
    expect(generalizedText(['Same words.', 'Same words.'])).toBe('Same words.')
    // Different lessons (or different lengths) stay apart.
    expect(generalizedText(['Fix: run a b c d', 'Fix: use w x y z'])).toBeNull()
    expect(generalizedText(['Fix: `a`.', 'Fix: `a` then `b`.'])).toBeNull()
  })
})
