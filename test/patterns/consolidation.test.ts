/**
 * Issue 20, consolidation: no lesson is ever lost (two lessons whose names collide get two skills;
 * entries leave the pattern files only once the file telling their lesson is written and read
 * back); a lesson already crystallized adds its sources to its skill; CLAUDE.md holds one rule per
 * subject after any number of rounds, a rule a person would write; skill descriptions name the
 * situation and count sessions. Each case failed before.
 */
import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../src/engine/core/frontmatter.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { consolidatePatterns } from '../../src/patterns/app/consolidate-patterns.ts'
import {
  type PatternEntry,
  parsePatternFile,
  renderPatternFile,
} from '../../src/patterns/core/pattern-entry.ts'
import { memoryPatternWorkspace } from '../support/pattern-workspace.ts'

const model = createExtractiveLanguageModel()

/** An entry of `session` on `date` with `parts` on top (a git gotcha by default). */
function entry(session: string, date: string, parts: Partial<PatternEntry>): PatternEntry {
  const id = `${date}-${session.slice(0, 8).padEnd(8, '0')}`
  return {
    id,
    domain: 'git',
    date,
    category: 'tool-failure',
    tags: ['tool-failure', 'git'],
    sources: [session, 'abcd1234'],
    status: 'active',
    title: 'title',
    observation: 'observation',
    details: 'Fix: details.',
    context: 'Running `git push` in this project.',
    ...parts,
  }
}

const push = (session: string, date: string, branch: string) =>
  entry(session, date, {
    title: `\`git push\` fails: fatal: The current branch ${branch} has no upstream branch.`,
    observation: `\`git push\` fails with \`fatal: The current branch ${branch} has no upstream branch.\``,
    details: `Fix: \`git push --set-upstream origin ${branch}\`.`,
  })

async function plant(
  patterns: { write(path: string, text: string): Promise<void> },
  entries: PatternEntry[],
) {
  const byDomain = new Map<string, PatternEntry[]>()
  for (const each of entries)
    byDomain.set(each.domain, [...(byDomain.get(each.domain) ?? []), each])
  for (const [domain, list] of byDomain)
    await patterns.write(`${domain}.md`, renderPatternFile({ preamble: '', entries: list }))
}

describe('no lesson is lost', () => {
  it('two lessons whose titles share their first six words get two skills, and every entry is cited', async () => {
    const { workspace, patterns, project } = memoryPatternWorkspace('2026-02-15')
    const lazy = (session: string, date: string) =>
      entry(session, date, {
        domain: 'elixir',
        category: 'gotcha',
        tags: ['gotcha', 'elixir'],
        title: 'LiveView test setup fails without its dependency: lazy_html for Floki parsing',
        observation:
          'Phoenix LiveView requires lazy_html as a test dependency when rendering views',
        details:
          'Fix: add `{:lazy_html, ">= 0.1.0", only: :test}` to mix.exs and run `mix deps.get`.',
        context: 'Running `mix test` in this project.',
      })
    const secret = (session: string, date: string) =>
      entry(session, date, {
        domain: 'elixir',
        category: 'gotcha',
        tags: ['gotcha', 'elixir'],
        title: 'LiveView test setup fails without its dependency: secret_key_base endpoint config',
        observation:
          'no :secret_key_base configuration found in the Endpoint under config/test.exs',
        details:
          'Fix: configure the endpoint in `config/test.exs` with a 64 byte `secret_key_base`, `server: false`.',
        context: 'Running `mix test` in this project.',
      })
    const planted = [
      lazy('s1', '2026-02-11'),
      lazy('s2', '2026-02-12'),
      lazy('s3', '2026-02-13'),
      secret('s4', '2026-02-11'),
      secret('s5', '2026-02-12'),
      secret('s6', '2026-02-13'),
    ]
    await plant(patterns, planted)
    const result = await consolidatePatterns(workspace, { model })
    const names = result.skills.map((skill) => skill.name)
    expect(names).toHaveLength(2)
    expect(new Set(names).size).toBe(2)
    expect(names.some((name) => name.endsWith('-2'))).toBe(true)
    const skills = await Promise.all(result.skills.map((skill) => project.read(skill.path)))
    const all = skills.join('\n')
    expect(all).toContain('lazy_html')
    expect(all).toContain('secret_key_base')
    for (const planted_ of planted) expect(all).toContain(`\`${planted_.id}\``)
  })

  it('an entry leaves the pattern files only once its skill reads back citing it', async () => {
    const { workspace, patterns } = memoryPatternWorkspace('2026-02-15')
    await plant(patterns, [
      push('s1', '2026-02-11', 'feat-a'),
      push('s2', '2026-02-12', 'feat-b'),
      push('s3', '2026-02-13', 'feat-c'),
    ])
    // Another process rewrites the skill between our write and our read-back.
    const project = workspace.project
    const clobbered = {
      ...workspace,
      project: {
        ...project,
        read: async (path: string) =>
          path.endsWith('SKILL.md') ? '---\nname: theirs\n---\n# Theirs\n' : project.read(path),
        write: project.write,
        folders: project.folders,
      },
    }
    const result = await consolidatePatterns(clobbered, { model })
    expect(result.skills).toHaveLength(1)
    const left = parsePatternFile((await patterns.read('git.md')) ?? '', 'git').entries
    expect(left).toHaveLength(3)
  })
})

describe('a lesson crystallized before', () => {
  it('adds its new sources to its skill instead of a second skill, and counts sessions', async () => {
    const { workspace, patterns, project, setDay } = memoryPatternWorkspace('2026-02-15')
    await plant(patterns, [
      push('s1', '2026-02-11', 'spotter-gqc'),
      push('s2', '2026-02-12', 'spotter-dov'),
      push('s3', '2026-02-13', 'spotter-fum'),
    ])
    const first = await consolidatePatterns(workspace, { model })
    expect(first.skills).toHaveLength(1)
    setDay('2026-02-20')
    // Three more sessions, their branches named otherwise, and one session telling it twice.
    await plant(patterns, [
      push('s4', '2026-02-18', 'fix-login'),
      push('s5', '2026-02-19', 'fix-logout'),
      push('s6', '2026-02-19', 'fix-signup'),
      { ...push('s6', '2026-02-19', 'fix-signup-2'), id: '2026-02-19-s6twice0' },
    ])
    const second = await consolidatePatterns(workspace, { model })
    expect(second.skills).toHaveLength(1)
    expect(second.skills[0]?.name).toBe(first.skills[0]?.name)
    const text = (await project.read(second.skills[0]?.path ?? '')) ?? ''
    for (const session of ['s1', 's2', 's3', 's4', 's5', 's6'])
      expect(text).toContain(`(session ${session})`)
    const description = String(parseFrontmatter(text).data.description)
    // Seven observations from six sessions.
    expect(description).toContain('seen in 6 sessions')
    // The situation: the tool and its symptom.
    expect(description).toMatch(
      /Use when `git push` fails with `fatal: The current branch .* has no upstream branch\.?`/,
    )
  })
})

describe('CLAUDE.md', () => {
  const workflow = (session: string, date: string, steps: string[]) =>
    entry(session, date, {
      domain: 'general',
      category: 'convention',
      tags: ['convention', 'workflow'],
      title: `Per task: ${steps.join(' → ')}`,
      observation: 'Each piece of work ran the same steps, in this order (3 times in the session).',
      details: `Rule: For each task, run ${steps.join(' → ')}, in this order.`,
      context: 'Finishing each task in this project, up to its commit and push.',
    })

  it('holds one workflow rule after three rounds, a sentence with the steps in the order run', async () => {
    const { workspace, patterns, project, setDay } = memoryPatternWorkspace('2026-02-15', {
      project: { 'CLAUDE.md': '# Project\n\nOur own notes.\n' },
    })
    const rounds = [
      [
        '`bd update --status in_progress`',
        '`mix test`',
        '`mix credo --strict`',
        '`bd close`',
        '`git commit`',
        '`git push`',
      ],
      ['`bd update --status in_progress`', '`mix test`', '`bd close`', '`git add`', '`git commit`'],
      [
        '`bd update --status in_progress`',
        '`mix compile --warnings-as-errors`',
        '`mix test`',
        '`bd close`',
        '`git commit`',
        '`git push`',
      ],
    ]
    for (const [round, steps] of rounds.entries()) {
      setDay(`2026-02-2${round}`)
      await plant(patterns, [
        workflow(`r${round}a`, `2026-02-2${round}`, steps),
        workflow(`r${round}b`, `2026-02-2${round}`, steps),
        workflow(`r${round}c`, `2026-02-2${round}`, steps),
      ])
      await consolidatePatterns(workspace, { model })
    }
    const text = (await project.read('CLAUDE.md')) ?? ''
    expect(text.startsWith('# Project\n\nOur own notes.\n')).toBe(true)
    const rules = text.split('\n').filter((line) => line.startsWith('- '))
    expect(rules).toHaveLength(1)
    expect(rules[0]).toMatch(
      /^- For each task, run `bd update --status in_progress`, then `mix compile --warnings-as-errors`, then `mix test`, then `bd close`, then `git commit`, then `git push`\. /,
    )
    // Every round's observations stay cited.
    for (const round of ['r0a', 'r1a', 'r2a']) expect(rules[0]).toContain(round.padEnd(8, '0'))
  })
})
