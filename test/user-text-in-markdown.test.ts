/**
 * Issue 13, item 13: text from users is escaped where it lands in a brain file. A task name with
 * newlines must not become headings of a feature PRD, and `<!--` / `-->` in a bookmark or a task
 * log must not open or close the comment that carries a line's provenance. Through the commands.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { type BrainCliProject, createBrainCliProject } from './support/brain-cli.ts'

let project: BrainCliProject
afterEach(() => project?.dispose())

const FEATURE =
  '---\nid: auth\nstatus: active\n---\n# Auth\n\n## Changelog\n<!-- newest first -->\n'

/** Every line of the core files that mentions `needle`. */
function coreLinesWith(brain: BrainCliProject, needle: string): string[] {
  return ['core/1.user.md', 'core/2.memory.md']
    .flatMap((path) => {
      try {
        return brain.read(`_agent_context/${path}`).split('\n')
      } catch {
        return []
      }
    })
    .filter((line) => line.includes(needle))
}

describe('user text in markdown', () => {
  it('folds a task whose name has newlines into its PRD as one heading, comments neutralised', async () => {
    project = createBrainCliProject()
    project.write('_agent_context/core/features/auth.md', FEATURE)
    const name = 'Login form\n## Injected section\n# Fake title'
    const created = await project.run(['tasks', 'create', name, '--feature', 'auth', '--json'])
    expect(created.code).toBe(0)
    const slug = (JSON.parse(created.stdout) as { slug: string }).slug
    const logged = await project.run(['tasks', 'log', slug, 'hid', 'this', '<!--', 'note'])
    expect(logged.code).toBe(0)
    const completed = await project.run(['tasks', 'complete', slug, 'Shipped --> early'])
    expect(completed.code).toBe(0)
    expect
      .soft(project.read(`_agent_context/state/${slug}.md`))
      .toContain(': Completed: Shipped --&gt; early\n')
    expect
      .soft(project.read(`_agent_context/state/${slug}.md`))
      .toContain(': hid this &lt;!-- note\n')

    expect((await project.run(['sleep', 'run'])).code).toBe(0)
    const prd = project.read('_agent_context/core/features/auth.md').split('\n')
    expect.soft(prd.filter((line) => /^#{1,2} /.test(line))).toEqual(['# Auth', '## Changelog'])
    const heading = prd.findIndex((line) => line.startsWith('### '))
    expect
      .soft(prd[heading])
      .toMatch(/^### \d{4}-\d\d-\d\d - Login form ## Injected section # Fake title$/)
    expect
      .soft(prd[heading + 1])
      .toBe(`- Completed: Shipped --&gt; early <!-- sources: task:${slug} -->`)
  })

  it('keeps the provenance comment of a bookmark that holds <!-- and -->', async () => {
    project = createBrainCliProject()
    const message = 'Never <!-- edit the generated client by hand --> regenerate it instead'
    expect((await project.run(['bookmark', 'add', '-s', '3', message])).code).toBe(0)
    expect((await project.run(['sleep', 'run'])).code).toBe(0)
    const lines = coreLinesWith(project, 'regenerate it instead')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^- Never &lt;!-- edit the generated client by hand --&gt; regenerate it instead <!-- sources: bm_[^;]+; extractive \d{4}-\d\d-\d\d -->$/,
    )
  })
  it('shows a pinned note whose title has newlines under one heading in the snapshot', async () => {
    project = createBrainCliProject()
    const title = 'Deploy steps\n## Fake heading'
    const created = await project.run([
      'knowledge',
      'create',
      'deploy',
      '--title',
      title,
      '--pinned',
      '--body',
      'Run the release script.',
    ])
    expect(created.code).toBe(0)
    const snapshot = (await project.run(['snapshot'])).stdout.split('\n')
    expect(snapshot.filter((line) => line.startsWith('## Fake'))).toEqual([])
    expect(snapshot).toContain(
      '### Deploy steps ## Fake heading (_agent_context/knowledge/deploy.md)',
    )
  })
})
