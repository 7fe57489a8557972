/**
 * Issue 20, worktrees: the pattern folder is the main repository's, so the worktrees of one
 * repository add up. Three sessions that teach one lesson in three worktrees (real `git worktree
 * add`) crystallize into one skill; the folders each worktree had before are merged in and set
 * aside, once; a `.git` file that git did not write for its folder is not trusted. Each failed
 * before: every worktree had its own folder.
 */
import { execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fixedClock } from '../../src/engine/ports/clock.ts'
import { createExtractiveLanguageModel } from '../../src/index.ts'
import { patternProjectId } from '../../src/patterns/adapters/fs/pattern-locations.ts'
import { consolidatePatterns } from '../../src/patterns/app/consolidate-patterns.ts'
import { encodePatterns } from '../../src/patterns/app/encode-patterns.ts'
import { openPatternWorkspace } from '../../src/patterns/compose-patterns.ts'
import { craftedSession, digestOfLines } from '../support/pattern-workspace.ts'

const base = realpathSync(mkdtempSync(join(tmpdir(), 'somnus-worktrees-')))
afterAll(() => rmSync(base, { recursive: true, force: true }))

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    stdio: 'pipe',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    },
  })

/** A repository with a commit and `names` worktrees beside it; returns the main root and the worktrees. */
function repositoryWithWorktrees(folder: string, names: string[]) {
  const main = join(folder, 'app')
  mkdirSync(main, { recursive: true })
  git(main, 'init', '-q', '-b', 'main')
  git(main, 'commit', '-q', '--allow-empty', '-m', 'start')
  const trees = names.map((name) => {
    const tree = join(folder, `app-worktrees`, name)
    git(main, 'worktree', 'add', '-q', '-b', name, tree)
    return tree
  })
  return { main, trees }
}

/** A session in worktree `branch` whose first push needs `--set-upstream`. */
function pushSession(sessionId: string, branch: string, day: string): string[] {
  return craftedSession(
    sessionId,
    `Implement ${branch}`,
    [
      {
        run: 'git push',
        output: `Exit code 128\nfatal: The current branch ${branch} has no upstream branch.`,
        error: true,
      },
      {
        run: `git push --set-upstream origin ${branch}`,
        output: `branch '${branch}' set up to track 'origin/${branch}'.`,
      },
    ],
    day,
  )
}

describe('the worktrees of one repository', () => {
  it('share one pattern folder, so one lesson of three sessions in three worktrees is one skill', async () => {
    const { main, trees } = repositoryWithWorktrees(join(base, 'one'), [
      'app-gqc',
      'app-dov',
      'app-fum',
    ])
    const home = join(base, 'one', 'home')
    const env = { HOME: home }
    const days = ['2026-02-11', '2026-02-12', '2026-02-13']
    for (const [index, tree] of trees.entries()) {
      const workspace = openPatternWorkspace({
        cwd: join(tree),
        env,
        clock: fixedClock(`${days[index]}T12:00:00Z`),
      })
      expect(workspace.projectDir).toBe(tree)
      expect(workspace.projectId).toBe(patternProjectId(main))
      const branch = `app-${['gqc', 'dov', 'fum'][index]}`
      await encodePatterns(workspace, {
        digest: digestOfLines(pushSession(`${index + 1}aaaaaaa`, branch, days[index] as string)),
      })
    }
    const last = openPatternWorkspace({
      cwd: trees[2] as string,
      env,
      clock: fixedClock('2026-02-14T12:00:00Z'),
    })
    const result = await consolidatePatterns(last, { model: createExtractiveLanguageModel() })
    expect(result.skills).toHaveLength(1)
    expect(result.skills[0]?.citations).toHaveLength(3)
    // The skill is written where the consolidation ran: the worktree's checkout.
    expect(existsSync(join(trees[2] as string, result.skills[0]?.path ?? ''))).toBe(true)
  })

  it('merge the folders each worktree had before into the repository folder, once, losing nothing', async () => {
    const { main, trees } = repositoryWithWorktrees(join(base, 'two'), ['feature-a', 'feature-b'])
    const home = join(base, 'two', 'home')
    const patternsBase = join(home, '.claude', 'rem', 'patterns')
    const entry = (id: string, session: string) =>
      `---\nid: ${id}\ndomain: git\ndate: 2026-02-10\ncategory: tool-failure\ntags: [git]\nsources: [${session}]\nstatus: active\n---\n### \`git push\` fails: no upstream (${id})\n\n- **Observation**: \`git push\` fails with \`no upstream\`\n- **Details**: Fix: \`git push --set-upstream origin ${session}\`.\n- **Context**: Running \`git push\` in this project.\n`
    // Before: one folder per worktree (and one per main checkout, which keeps its id).
    const oldA = join(patternsBase, patternProjectId(trees[0] as string))
    const oldB = join(patternsBase, patternProjectId(trees[1] as string))
    const current = join(patternsBase, patternProjectId(main))
    mkdirSync(oldA, { recursive: true })
    mkdirSync(oldB, { recursive: true })
    mkdirSync(current, { recursive: true })
    writeFileSync(join(oldA, 'git.md'), entry('2026-02-10-aaaaaaaa', 'sa'))
    writeFileSync(join(oldA, '.somnus-entry-ids'), '2026-02-10-aaaaaaaa\n')
    writeFileSync(
      join(oldB, 'git.md'),
      `${entry('2026-02-10-bbbbbbbb', 'sb')}\n${entry('2026-02-10-cccccccc', 'sc')}`,
    )
    writeFileSync(join(current, 'git.md'), entry('2026-02-10-cccccccc', 'sc'))
    const workspace = openPatternWorkspace({
      cwd: trees[0] as string,
      env: { HOME: home },
      clock: fixedClock('2026-02-11T12:00:00Z'),
    })
    await workspace.exclusive(async () => undefined)
    const ids = async () =>
      ((await workspace.patterns.read('git.md')) ?? '').match(/^id: .+$/gm)?.sort() ?? []
    expect(await ids()).toEqual([
      'id: 2026-02-10-aaaaaaaa',
      'id: 2026-02-10-bbbbbbbb',
      'id: 2026-02-10-cccccccc',
    ])
    expect(await workspace.patterns.read('.somnus-entry-ids')).toContain('2026-02-10-aaaaaaaa')
    // Set aside, not deleted; a second run moves nothing and changes nothing.
    expect(existsSync(oldA)).toBe(false)
    expect(readdirSync(patternsBase).filter((name) => name.includes('.moved-to-'))).toHaveLength(2)
    const before = await workspace.patterns.read('git.md')
    await workspace.exclusive(async () => undefined)
    expect(await workspace.patterns.read('git.md')).toBe(before)
  })

  it('do not trust a .git file git did not write for its folder', async () => {
    const { main, trees } = repositoryWithWorktrees(join(base, 'three'), ['real'])
    // A checkout whose committed `.git` file claims to be the other repository's worktree.
    const hostile = join(base, 'three', 'hostile')
    mkdirSync(hostile, { recursive: true })
    writeFileSync(join(hostile, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'real')}\n`)
    const workspace = openPatternWorkspace({
      cwd: hostile,
      env: { HOME: join(base, 'three', 'home') },
    })
    expect(workspace.projectId).toBe(patternProjectId(hostile))
    expect(workspace.projectId).not.toBe(patternProjectId(main))
    expect(trees).toHaveLength(1)
  })

  it('do not let a checkout name itself a worktree of any repository it likes', () => {
    const { main } = repositoryWithWorktrees(join(base, 'four'), [])
    // Every file committed: `.git` names the checkout as its own admin folder, `gitdir` leads
    // back, `commondir` names another project's repository.
    const hostile = join(base, 'four', 'hostile')
    mkdirSync(hostile, { recursive: true })
    writeFileSync(join(hostile, '.git'), 'gitdir: .\n')
    writeFileSync(join(hostile, 'gitdir'), '.git\n')
    writeFileSync(join(hostile, 'commondir'), `${join(main, '.git')}\n`)
    const workspace = openPatternWorkspace({
      cwd: hostile,
      env: { HOME: join(base, 'four', 'home') },
    })
    expect(workspace.projectId).not.toBe(patternProjectId(main))
    expect(workspace.projectId).toBe(patternProjectId(hostile))
  })
})
