import { describe, expect, it } from 'vitest'
import { fixtureDigest, fixtureItem } from '../../../../test/support/session-digest-fixture.ts'
import { digestFeatureEntries } from './digest-features.ts'

const digest = fixtureDigest
const item = fixtureItem
const prd = (frontmatter: string, body = '') =>
  `---\n${frontmatter}\nstatus: active\n---\n\n# Feature\n\n## Why\n\nBecause.\n${body}`

const features = [
  { path: 'core/features/tokens.md', text: prd('related_tasks: [auth-v2]') },
  {
    path: 'core/features/sessions.md',
    text: prd(
      'id: feat_sess01',
      '\n## Technical Details\n\nCookies are set in `src/server/cookies.ts`.\n',
    ),
  },
  { path: 'core/features/login.md', text: prd('title: Login') },
]
const session = digest({
  commits: [item('`abc1234` feat: rotate refresh tokens (auth-v2.1)', 'c1')],
  done: [
    item('Closed `auth-v2.1`: refresh tokens rotate on every use. The old one is revoked.', 'd1'),
    item('Wrap-up: auth-v2.1 is done and the login page works.', 'w1'),
    item('Closed `ui-7`: the login button is blue.', 'd2'),
  ],
  open: [item('`auth-v2.2` is open: revoke tokens on logout', 'o1')],
  changes: [
    {
      area: 'src/server/',
      items: [
        item('`cookies.ts`: cookies are httpOnly; SameSite is strict; the domain is cut sh…', 'f1'),
        item('`routes.ts`: a /logout route', 'f2'),
      ],
    },
  ],
})

describe('digestFeatureEntries', () => {
  const result = digestFeatureEntries({
    digests: [session],
    features,
    tasks: [],
    date: '2026-03-03',
    model: 'extractive',
  })
  const text = (path: string) => result.files.find((file) => file.path === path)?.text ?? ''

  it("files a session's finished work under the PRD whose tasks it names, never what is open", () => {
    const tokens = text('core/features/tokens.md')
    expect(tokens).toContain('## Changelog\n\n### 2026-03-02 - Session 11111111\n')
    expect(tokens).toContain(
      '- `abc1234` feat: rotate refresh tokens (auth-v2.1) <!-- sources: session:11111111, c1; extractive 2026-03-03 -->',
    )
    expect(tokens).toContain('- Closed `auth-v2.1`: refresh tokens rotate on every use.')
    expect(tokens).not.toContain('auth-v2.2')
    expect(tokens).not.toContain('Wrap-up')
    expect(tokens).not.toContain('ui-7')
    expect(tokens).toMatch(/^updated: 2026-03-03$/m)
  })

  it('files a changed file under the PRD that names it, by its project path, in whole clauses', () => {
    const sessions = text('core/features/sessions.md')
    expect(sessions).toContain(
      '- `src/server/cookies.ts`: cookies are httpOnly; SameSite is strict <!-- sources: session:11111111, f1;',
    )
    expect(sessions).not.toContain('routes.ts')
    expect(sessions).not.toContain('cut sh')
  })

  it('leaves a PRD named by a plain word alone, and adds nothing twice', () => {
    expect(result.files.map((file) => file.path).sort()).toEqual([
      'core/features/sessions.md',
      'core/features/tokens.md',
    ])
    const again = digestFeatureEntries({
      digests: [session],
      features: features.map((feature) => ({
        path: feature.path,
        text: text(feature.path) || feature.text,
      })),
      tasks: [],
      date: '2026-03-03',
      model: 'extractive',
    })
    expect(again.files).toEqual([])
  })

  it('finds the PRD through a task file that points at it', () => {
    const viaTask = digestFeatureEntries({
      digests: [session],
      features: [{ path: 'core/features/ui.md', text: prd('title: UI') }],
      tasks: [{ path: 'state/ui-7.md', text: '---\nname: Blue button\nfeature: ui\n---\n' }],
      date: '2026-03-03',
      model: 'extractive',
    })
    expect(viaTask.files[0]?.text).toContain('- Closed `ui-7`: the login button is blue.')
  })
})
