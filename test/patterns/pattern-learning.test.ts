/**
 * Seed 002's items on crafted sessions, through the use cases with in-memory folders: encode
 * (items 2, 4, 7), contradiction (3), consolidation into one skill with three citations (7, 8, 10),
 * MEMORY.md lines (5, 6) and the read-before-act index (1).
 */
import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../src/engine/core/frontmatter.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { consolidatePatterns } from '../../src/patterns/app/consolidate-patterns.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import { listPatterns, patternIndex } from '../../src/patterns/app/list-patterns.ts'
import { prunePatterns } from '../../src/patterns/app/prune-patterns.ts'
import { parsePatternFile } from '../../src/patterns/core/pattern-entry.ts'
import {
  craftedSession,
  digestOfLines,
  memoryPatternWorkspace,
} from '../support/pattern-workspace.ts'

const model = createExtractiveLanguageModel()

/** A session on `day` that hits the gitignored-asset gotcha and fixes it with a force-add. */
function gitignoreSession(sessionId: string, day: string): string[] {
  return craftedSession(
    sessionId,
    'Ship the new styles',
    [
      {
        run: 'git add priv/static/assets/app.css',
        output:
          'Exit code 1\nThe following paths are ignored by one of your .gitignore files:\npriv/static/assets\nhint: Use -f if you really want to add them.',
        error: true,
      },
      {
        say: 'The file is ignored because priv/static/assets/ is in .gitignore, but app.css is tracked, so it must be force-added.',
      },
      { run: 'git add -f priv/static/assets/app.css', output: '' },
      { say: 'Staged the stylesheet with a force-add and committed.' },
    ],
    day,
  )
}

/** Encodes crafted session `lines` as `patterns encode` would. */
function encode(workspace: Parameters<typeof encodePatterns>[0], lines: string[]) {
  return encodePatterns(workspace, { digest: digestOfLines(lines) })
}

describe('encode', () => {
  it('writes complete entries with frontmatter into the domain file, citing the session first', async () => {
    // Encoded weeks later: the entry is dated by the session, not by the day it was encoded.
    const { workspace, patterns } = memoryPatternWorkspace('2026-03-02')
    const result = await encode(workspace, gitignoreSession('aaaa1111', '2026-02-11'))
    expect(result.added).toHaveLength(1)
    const text = (await patterns.read('git.md')) ?? ''
    const { data } = parseFrontmatter(text)
    expect(data).toMatchObject({
      domain: 'git',
      date: '2026-02-11',
      category: 'tool-failure',
      status: 'active',
    })
    expect((data.sources as string[])[0]).toBe('aaaa1111')
    const [entry] = parsePatternFile(text, 'git').entries
    // Symptom, cause and fix: the real error line, the agent's reason, the command that worked.
    expect(entry?.observation).toBe(
      '`git add` fails with `The following paths are ignored by one of your .gitignore files:`',
    )
    expect(entry?.details).toMatch(
      /^Cause: .*because priv\/static\/assets\/ is in \.gitignore.*\. Fix: `git add -f priv\/static\/assets\/app\.css`\.$/,
    )
    // Where the lesson applies, not what the session happened to be about.
    expect(entry?.context).toBe('Running `git add` in this project.')
    expect(entry?.context).not.toContain('Ship the new styles')
    expect(text).toMatch(/- \*\*Observation\*\*: .+\n- \*\*Details\*\*: .+\n- \*\*Context\*\*: .+/)
  })

  it('encoding the same session twice (Stop, then SessionEnd) updates its entries instead of repeating them', async () => {
    const { workspace } = memoryPatternWorkspace('2026-02-11')
    const lines = gitignoreSession('aaaa1111', '2026-02-11')
    // Stop encodes the session up to the fix; SessionEnd encodes it whole.
    await encode(workspace, lines.slice(0, 6))
    const second = await encode(workspace, lines)
    expect(second.added).toEqual([])
    expect(second.updated).toHaveLength(1)
    expect(await listPatterns(workspace)).toHaveLength(1)
  })

  it('two encodes started together never interleave: both sessions land whole', async () => {
    const { workspace } = memoryPatternWorkspace('2026-02-11')
    await Promise.all([
      encode(workspace, gitignoreSession('aaaa1111', '2026-02-11')),
      encode(workspace, gitignoreSession('bbbb2222', '2026-02-11')),
    ])
    const sessions = (await listPatterns(workspace)).map((entry) => entry.sources[0]).sort()
    expect(sessions).toEqual(['aaaa1111', 'bbbb2222'])
  })
})

describe('contradiction (item 3)', () => {
  it('a later session that contradicts an entry supersedes it: kept, marked, linked, never both active', async () => {
    const { workspace, setDay } = memoryPatternWorkspace('2026-02-02')
    const first = craftedSession(
      'cccc3333',
      'Fix the N+1 on the comments page',
      [
        {
          run: 'bundle exec rspec spec/comments_spec.rb',
          output: 'Exit code 1\nFAILED: expected 1 query for comments, got 201 (N+1)',
          error: true,
        },
        {
          say: 'The N+1 is there because the polymorphic commentable association is not eager loaded.',
        },
        { say: 'Add includes(:commentable) to the comments query so it eager loads them.' },
        { edit: 'app/controllers/comments_controller.rb' },
        { run: 'bundle exec rspec spec/comments_spec.rb', output: '12 examples, 0 failures' },
      ],
      '2026-02-02',
    )
    await encode(workspace, first)
    setDay('2026-02-05')
    const second = craftedSession(
      'dddd4444',
      'The comments page is slow again',
      [
        {
          run: 'bundle exec rspec spec/comments_spec.rb',
          output: 'Exit code 1\nFAILED: expected 1 query for comments, got 201 (N+1)',
          error: true,
        },
        {
          say: 'Actually includes(:commentable) does not eager load the polymorphic commentable association here.',
        },
        { say: 'Use preload(:commentable) in the comments query instead.' },
        { edit: 'app/controllers/comments_controller.rb' },
        { run: 'bundle exec rspec spec/comments_spec.rb', output: '12 examples, 0 failures' },
      ],
      '2026-02-05',
    )
    const result = await encode(workspace, second)
    expect(result.superseded).toHaveLength(1)
    const all = await listPatterns(workspace, { all: true, domain: result.superseded[0]?.domain })
    const old = all.find((entry) => entry.sources[0] === 'cccc3333')
    const fresh = all.find((entry) => entry.sources[0] === 'dddd4444')
    expect(old).toMatchObject({ status: 'superseded', supersededBy: fresh?.id, category: 'gotcha' })
    expect(fresh).toMatchObject({ status: 'active', supersedes: old?.id })
    expect(fresh?.details).toMatch(/^Cause: Actually includes.*Fix: Use preload\(:commentable\)/)
    const active = await listPatterns(workspace, { domain: result.superseded[0]?.domain })
    expect(active.map((entry) => entry.id)).toEqual([fresh?.id])
  })
})

describe('consolidate (items 5-8, 10)', () => {
  it('three sessions with the same gotcha crystallize into one skill with three citations and a MEMORY.md line', async () => {
    const { workspace, patterns, project, memory, setDay } = memoryPatternWorkspace('2026-02-11', {
      memory: {
        'MEMORY.md':
          '# Memory\n- [Prefers small commits](feedback_commits.md) — one fix per commit\n',
      },
    })
    for (const [day, session] of [
      ['2026-02-11', 'aaaa1111'],
      ['2026-02-12', 'bbbb2222'],
      ['2026-02-14', 'cccc3333'],
    ] as const) {
      setDay(day)
      await encode(workspace, gitignoreSession(session, day))
    }
    setDay('2026-02-15')
    const result = await consolidatePatterns(workspace, { model })
    expect(result.bailOut).toBeNull()
    expect(result.skills).toHaveLength(1)
    const [skill] = result.skills
    expect(skill?.path).toMatch(/^\.claude\/skills\/git-[a-z0-9-]+\/SKILL\.md$/)
    expect(skill?.citations).toHaveLength(3)
    const text = (await project.read(skill?.path ?? '')) ?? ''
    const { data } = parseFrontmatter(text)
    expect(data.name).toBe(skill?.name)
    expect(String(data.description)).toMatch(/seen in 3 sessions/)
    expect(text).toContain('<!-- consolidated from: git.md 2026-02-11, 2026-02-12, 2026-02-14 -->')
    for (const session of ['aaaa1111', 'bbbb2222', 'cccc3333'])
      expect(text).toContain(`(session ${session})`)
    expect(text).toContain('git add -f')
    // The crystallized entries leave the pattern file; the skill keeps their provenance.
    expect(parsePatternFile((await patterns.read('git.md')) ?? '', 'git').entries).toEqual([])
    const memoryText = (await memory.read('MEMORY.md')) ?? ''
    expect(
      memoryText.startsWith(
        '# Memory\n- [Prefers small commits](feedback_commits.md) — one fix per commit\n',
      ),
    ).toBe(true)
    expect(memoryText).toContain(`- [${skill?.name}](${skill?.path}) — `)
    expect(memoryText).toContain(`<!-- somnus:skill ${skill?.name} -->`)
  })

  it('bails out before grouping when no domain has three entries, and prunes entries past 30 days', async () => {
    const { workspace, setDay } = memoryPatternWorkspace('2026-01-01')
    await encode(workspace, gitignoreSession('aaaa1111', '2026-01-01'))
    setDay('2026-02-11')
    await encode(workspace, gitignoreSession('bbbb2222', '2026-02-11'))
    let grouped = false
    const counting = {
      ...model,
      groupSimilar: (request: Parameters<typeof model.groupSimilar>[0]) => {
        grouped = true
        return model.groupSimilar(request)
      },
    }
    const result = await consolidatePatterns(workspace, { model: counting })
    expect(result.bailOut).toMatch(/no domain has 3 or more active entries \(git 1\)/)
    expect(grouped).toBe(false)
    expect(result.pruned).toHaveLength(1)
    expect((await listPatterns(workspace)).map((entry) => entry.sources[0])).toEqual(['bbbb2222'])
  })

  it('puts every-task rules (conventions, preferences) in a marked CLAUDE.md section, keeping the rest of the file', async () => {
    const { workspace, project, setDay } = memoryPatternWorkspace('2026-02-11', {
      project: { 'CLAUDE.md': '# Project\nRun mix test before committing.\n' },
    })
    for (const [day, session] of [
      ['2026-02-11', 'aaaa1111'],
      ['2026-02-12', 'bbbb2222'],
      ['2026-02-13', 'cccc3333'],
    ] as const) {
      setDay(day)
      // The user corrects the agent mid-session, in their own words.
      const lines = craftedSession(
        session,
        'Fold the typo fix into the last commit',
        [
          { run: 'git commit --amend --no-edit', output: '[main 1234567] Fix the header' },
          {
            prompt:
              'Please never use git commit --amend on shared branches; always make a new commit instead.',
          },
          { say: 'Understood: the branch is shared, so a new commit it is.' },
        ],
        day,
      )
      await encode(workspace, lines)
    }
    const result = await consolidatePatterns(workspace, { model })
    expect(result.skills).toEqual([])
    expect(result.claudeMdRules).toHaveLength(1)
    const claudeMd = (await project.read('CLAUDE.md')) ?? ''
    expect(claudeMd.startsWith('# Project\nRun mix test before committing.\n')).toBe(true)
    expect(claudeMd).toMatch(
      /<!-- somnus:patterns:start[^\n]*-->\n## Learned rules \(Somnus\)\n\n- .*never use git commit --amend on shared branches.*<!-- somnus:rule [^;]+; consolidated from: .*2026-02-11/,
    )
    expect(claudeMd).toContain('<!-- somnus:patterns:end -->')
  })

  it('--dry-run plans the same files and writes nothing', async () => {
    const { workspace, project, setDay } = memoryPatternWorkspace('2026-02-11')
    for (const [day, session] of [
      ['2026-02-11', 'aaaa1111'],
      ['2026-02-12', 'bbbb2222'],
      ['2026-02-14', 'cccc3333'],
    ] as const) {
      setDay(day)
      await encode(workspace, gitignoreSession(session, day))
    }
    const result = await consolidatePatterns(workspace, { model, dryRun: true })
    expect(result.files.map((file) => file.path)).toContain(`project:${result.skills[0]?.path}`)
    expect(project.snapshot()).toEqual({})
    expect(await listPatterns(workspace)).toHaveLength(3)
  })
})

describe('read-before-act index (item 1) and prune', () => {
  it('lists recent titles only, a lesson of three sessions once with its count', async () => {
    const { workspace, setDay } = memoryPatternWorkspace('2026-02-11', {
      settings: { index_entries: 2 },
    })
    for (const [day, session] of [
      ['2026-02-11', 'aaaa1111'],
      ['2026-02-12', 'bbbb2222'],
      ['2026-02-14', 'cccc3333'],
    ] as const) {
      setDay(day)
      await encode(workspace, gitignoreSession(session, day))
    }
    const index = await patternIndex(workspace)
    const lines = index.split('\n').filter((line) => line.startsWith('- '))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^- 2026-02-14 git: .+ \(3 sessions\)$/)
    expect(index).not.toContain('**Details**')
  })

  it('prune drops only entries older than the given age', async () => {
    const { workspace, setDay } = memoryPatternWorkspace('2026-01-01')
    await encode(workspace, gitignoreSession('aaaa1111', '2026-01-01'))
    setDay('2026-01-20')
    await encode(workspace, gitignoreSession('bbbb2222', '2026-01-20'))
    setDay('2026-01-25')
    expect((await prunePatterns(workspace, { days: 30 })).pruned).toEqual([])
    expect((await prunePatterns(workspace, { days: 10 })).pruned).toHaveLength(1)
    expect((await listPatterns(workspace)).map((entry) => entry.sources[0])).toEqual(['bbbb2222'])
  })
})
