/**
 * Issue 18 (low): a stray Somnus end marker above Somnus's section in CLAUDE.md made every
 * consolidation append another section. The section is a start marker followed by its own end
 * marker; stray markers are the user's text and stay; sections appended before are folded into
 * one. Consolidation runs on a real CLAUDE.md on disk.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createFsProjectFiles } from '../../src/engine/adapters/fs/fs-project-files.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { consolidatePatterns } from '../../src/patterns/app/consolidate-patterns.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import {
  CLAUDE_MD_END,
  CLAUDE_MD_START,
  withClaudeMdRules,
} from '../../src/patterns/core/claude-md-rules.ts'
import {
  craftedSession,
  digestOfLines,
  memoryPatternWorkspace,
} from '../support/pattern-workspace.ts'

const model = createExtractiveLanguageModel()

/** How many times `needle` occurs in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1

/** Three days of sessions in which the user says the same every-task rule. */
async function learnRule(
  workspace: Parameters<typeof encodePatterns>[0],
  setDay: (day: string) => void,
  days: readonly string[],
  prompt: string,
) {
  for (const [index, day] of days.entries()) {
    setDay(day)
    const lines = craftedSession(
      `${day.replaceAll('-', '')}${index}`.padEnd(8, '0'),
      'Fold the typo fix into the last commit',
      [
        { run: 'git commit --amend --no-edit', output: '[main 1234567] Fix the header' },
        { prompt },
        { say: 'Understood: the branch is shared, so a new commit it is.' },
      ],
      day,
    )
    await encodePatterns(workspace, { digest: digestOfLines(lines) })
  }
}

describe('the CLAUDE.md section and stray markers', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('a stray end marker above the section: two consolidations of a real CLAUDE.md keep one section and the stray line', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-claude-md-')))
    dirs.push(dir)
    const path = join(dir, 'CLAUDE.md')
    const stray = `Paste notes above ${CLAUDE_MD_END} — a copied marker.`
    writeFileSync(path, `# Project\n${stray}\nRun mix test before committing.\n`)
    const memory = memoryPatternWorkspace('2026-02-11')
    const workspace = { ...memory.workspace, project: createFsProjectFiles(dir) }
    const prompt =
      'Please never use git commit --amend on shared branches; always make a new commit instead.'
    await learnRule(workspace, memory.setDay, ['2026-02-11', '2026-02-12', '2026-02-13'], prompt)
    const first = await consolidatePatterns(workspace, { model })
    expect(first.claudeMdRules).toHaveLength(1)
    const once = readFileSync(path, 'utf8')
    expect(count(once, CLAUDE_MD_START)).toBe(1)
    await learnRule(workspace, memory.setDay, ['2026-02-14', '2026-02-15', '2026-02-16'], prompt)
    const second = await consolidatePatterns(workspace, { model })
    expect(second.claudeMdRules.length).toBeGreaterThan(0)
    const twice = readFileSync(path, 'utf8')
    expect(count(twice, CLAUDE_MD_START)).toBe(1)
    expect(count(twice, CLAUDE_MD_END)).toBe(2)
    expect(twice.startsWith(`# Project\n${stray}\nRun mix test before committing.\n`)).toBe(true)
    expect(count(twice, 'never use git commit --amend')).toBe(1)
  })

  it('folds sections an earlier version appended into the first, keeping their rules and the text between', () => {
    const rule = (subject: string, text: string) => ({
      subject,
      text,
      sources: [`git.md ${subject}`],
    })
    const section = withClaudeMdRules('', [rule('amend', 'Never amend shared commits.')])
    const damaged = `# Mine\n${CLAUDE_MD_END}\n\n${section}\nbetween\n\n${withClaudeMdRules('', [
      rule('push', 'Never force-push main.'),
    ])}tail\n`
    const repaired = withClaudeMdRules(damaged, [rule('tests', 'Run the tests before a commit.')])
    expect(count(repaired, CLAUDE_MD_START)).toBe(1)
    expect(repaired).toContain('Never amend shared commits.')
    expect(repaired).toContain('Never force-push main.')
    expect(repaired).toContain('Run the tests before a commit.')
    expect(repaired.startsWith(`# Mine\n${CLAUDE_MD_END}\n\n${CLAUDE_MD_START}`)).toBe(true)
    expect(repaired.endsWith(`${CLAUDE_MD_END}\n\nbetween\n\ntail\n`)).toBe(true)
    expect(withClaudeMdRules(repaired, [])).toBe(repaired)
  })

  it('a stray start marker with no end is the user text: the section is added after it and found again', () => {
    const mine = `# Mine\n${CLAUDE_MD_START}\nmy notes\n`
    const once = withClaudeMdRules(mine, [{ subject: 'a', text: 'Rule A.', sources: ['x.md a'] }])
    expect(once.startsWith(mine)).toBe(true)
    const twice = withClaudeMdRules(once, [{ subject: 'b', text: 'Rule B.', sources: ['x.md b'] }])
    expect(twice.startsWith(mine)).toBe(true)
    expect(count(twice, CLAUDE_MD_START)).toBe(2)
    expect(count(twice, CLAUDE_MD_END)).toBe(1)
    expect(twice).toContain('Rule A.')
    expect(twice).toContain('Rule B.')
  })
})
