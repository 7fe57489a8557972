/**
 * Digest items → pattern entries: gotchas as symptom / cause / fix (or nothing), decisions as
 * choice and reason, the user's words as rules, the repeated workflow as a convention. The item
 * texts are the shapes the session digest builder writes (checked end to end on real and crafted
 * sessions in test/patterns/).
 */
import { describe, expect, it } from 'vitest'
import { fixtureDigest } from '../../../test/support/session-digest-fixture.ts'
import type { SessionDigest } from '../../engine/core/digest/session-digest.ts'
import { decisionPartsOf } from './decision-parts.ts'
import { lessonsFromDigest } from './digest-lessons.ts'
import { gotchaPartsOf } from './gotcha-parts.ts'
import { isCompleteEntry } from './pattern-entry.ts'

/** A session s1 of 2026-02-11 with no times or files, and `parts` on top. */
function digest(parts: Partial<SessionDigest>): SessionDigest {
  return fixtureDigest({
    sessionId: 's1',
    date: '2026-02-11',
    startedAt: null,
    endedAt: null,
    files: [],
    workflow: [],
    ...parts,
  })
}

const item = (text: string) => ({ text, sources: ['abcd1234'] })

describe('gotchas', () => {
  it('takes a followed failure apart: error line, command, cause, the fix that worked', () => {
    expect(
      gotchaPartsOf(
        '`fatal: The current branch spotter-dov has no upstream branch.` in `git push` → `git push --set-upstream origin spotter-dov`',
      ),
    ).toEqual([
      {
        symptom: 'fatal: The current branch spotter-dov has no upstream branch.',
        command: 'git push',
        fromHook: false,
        cause: '',
        fix: '`git push --set-upstream origin spotter-dov`',
        fixKind: 'command',
      },
    ])
    const [tracked] = gotchaPartsOf(
      '`Pre-commit validation failed:` in `git commit` → Dialyzer says `LLMChain.run` returns a 3-tuple → match `{:error, _chain, reason}` in `call_llm`',
    )
    expect(tracked).toMatchObject({
      cause: 'Dialyzer says `LLMChain.run` returns a 3-tuple',
      fix: 'match `{:error, _chain, reason}` in `call_llm`',
      fixKind: 'change',
    })
  })

  it('writes no gotcha without a real fix: a rerun, a cause alone, a bare "changed" without a cause', () => {
    expect(gotchaPartsOf('`connection refused` in `mix test` → passed on a rerun')).toEqual([])
    expect(gotchaPartsOf('`connection refused` in `mix test` → The database was down')).toEqual([])
    expect(gotchaPartsOf('`boom` in `mix test` → changed `lib/a.ex`')).toEqual([])
    expect(
      gotchaPartsOf('`boom` in `mix test` → A typo in the alias → changed `lib/a.ex`'),
    ).toEqual([
      expect.objectContaining({ cause: 'A typo in the alias', fix: 'changed `lib/a.ex`' }),
    ])
  })

  it('reads an error a hook reported after an edit, fixed by the next change', () => {
    const [lesson] = lessonsFromDigest(
      digest({
        gotchas: [
          item(
            '`cannot invoke remote function Access.get/2 inside a guard` (a hook, after an edit) → bind the value before the case and match it with a pin',
          ),
        ],
      }),
    )
    expect(lesson).toMatchObject({
      category: 'gotcha',
      domain: 'general',
      observation:
        'After an edit, a hook reports `cannot invoke remote function Access.get/2 inside a guard`',
      details: 'Fix: Bind the value before the case and match it with a pin.',
    })
    expect(lesson?.context).toMatch(/^Editing `Access\.get\/2` in this project/)
  })

  it('splits a chain into one gotcha per failure, dropping the one a cut left without its fix', () => {
    const parts = gotchaPartsOf(
      '`mix test`: `undefined function get/2` → The helper needs `Phoenix.ConnTest` imported → import it in the test; `no :secret_key_base configuration found` → add the endpoint config to `config/test.exs`; `requires lazy_html` → add `{:lazy_html…',
    )
    expect(parts.map((part) => [part.command, part.symptom])).toEqual([
      ['mix test', 'undefined function get/2'],
      ['mix test', 'no :secret_key_base configuration found'],
    ])
  })

  it('reads a compaction summary bullet, the error as symptom even when it comes second', () => {
    expect(
      gotchaPartsOf(
        "LiveView test: sandbox isolation (Project not found): LiveView process can't access test sandbox checkout. Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.",
      ),
    ).toEqual([
      {
        symptom: 'LiveView test: sandbox isolation (Project not found)',
        command: '',
        fromHook: false,
        cause: "LiveView process can't access test sandbox checkout",
        fix: 'Using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`',
        fixKind: 'change',
      },
    ])
    expect(
      gotchaPartsOf(
        'gqc.4: Added `:state` to accept list before defining the attribute: Spark DSL error "Cannot accept [:state], because they are not attributes." Fixed by adding the `attribute :state, :atom` definition.',
      )[0],
    ).toMatchObject({
      symptom: 'Spark DSL error "Cannot accept [:state], because they are not attributes."',
      cause: 'Added `:state` to accept list before defining the attribute',
      fix: 'Adding the `attribute :state, :atom` definition',
    })
    // A bullet that names an error and no fix is no gotcha.
    expect(gotchaPartsOf('Build: the assets folder is gitignored.')).toEqual([])
  })
})

describe('decisions', () => {
  it('separates the choice from its reason and the option not taken', () => {
    expect(
      decisionPartsOf(
        "The public API requires `render/1` to keep working, so I'll have it delegate to a new `render/2`.",
      ),
    ).toEqual({
      choice: 'Have it delegate to a new `render/2`',
      reason: 'The public API requires `render/1` to keep working',
      over: '',
    })
    expect(
      decisionPartsOf(
        'Designed parallel enriched code path to avoid breaking `render_message/1` backward compatibility',
      ),
    ).toMatchObject({
      choice: 'Designed parallel enriched code path',
      reason: 'to avoid breaking `render_message/1` backward compatibility',
    })
    expect(
      decisionPartsOf('TranscriptRenderer ID normalization (prefer DB `id` over JSONL `uuid`)'),
    ).toMatchObject({ over: 'JSONL `uuid`' })
  })

  it('drops deliberation, accomplishments, questions and choices without reason or alternative', () => {
    expect(
      decisionPartsOf("I'm debating between an Ash resource and ETS, so ETS might be simpler."),
    ).toBeNull()
    expect(decisionPartsOf('SubagentLive now gets all features it was missing')).toBeNull()
    expect(decisionPartsOf('Should we use preload instead of includes?')).toBeNull()
    expect(decisionPartsOf('I decided to refactor the renderer module today')).toBeNull()
    expect(
      decisionPartsOf(
        "The spec includes the visibility logic, so I'll implement those as specified rather than deferring them.",
      ),
    ).toBeNull()
  })
})

describe('lessonsFromDigest', () => {
  it('maps each kind into its category, complete, citing the session first', () => {
    const lessons = lessonsFromDigest(
      digest({
        gotchas: [
          item(
            '`✘ [ERROR] Could not resolve "js/app.js"` in `node build.js` → `cd assets && node build.js`',
          ),
          item('Credo nesting depth in `build_index`: Extracted the inner lambda into a helper.'),
        ],
        decisions: [
          item('Used string prefix replacement for path relativization instead of regex'),
        ],
        preferences: [
          item(
            'Brief prompts ("Implement spotter-gqc"): the agent carries the whole task through without check-ins.',
          ),
          item('In the user\'s words: "did you push?"'),
          item('In the user\'s words: "Never amend commits on shared branches."'),
          item(
            'The user asked "Pre-existing credo issues block the hook. How should we proceed?": "fix the issues"; asked "Which linters?": "Credo + Dialyxir"',
          ),
        ],
        workflow: [
          item('Per piece of work (4 times): `mix test` → `mix credo --strict` → `git commit`.'),
        ],
        done: [item('Closed `spotter-dov`: SubagentLive now gets all features it was missing.')],
        // The session's files make Elixir its main domain: a lesson naming no technology joins it.
        changes: [
          {
            area: 'lib/spotter_web/live/',
            items: [
              item('`session_live.ex`: shared transcript component'),
              item('`paths.ex`: new'),
            ],
          },
        ],
      }),
    )
    expect(lessons.map((lesson) => [lesson.category, lesson.domain])).toEqual([
      ['tool-failure', 'node'],
      ['gotcha', 'elixir'],
      ['architectural-decision', 'elixir'],
      ['user-preference', 'general'],
      ['user-preference', 'git'],
      ['user-preference', 'elixir'],
      ['user-preference', 'elixir'],
      ['convention', 'elixir'],
    ])
    for (const lesson of lessons) {
      expect(isCompleteEntry(lesson), lesson.title).toBe(true)
      expect(lesson.sources).toEqual(['s1', 'abcd1234'])
    }
    expect(lessons[0]).toMatchObject({
      observation: '`node build.js` fails with `✘ [ERROR] Could not resolve "js/app.js"`',
      details: 'Fix: `cd assets && node build.js`.',
      context: 'Running `node build.js` in this project.',
    })
    expect(lessons[2]?.details).toBe('Chosen over regex.')
    expect(lessons[4]?.observation).toBe('The user said: "Never amend commits on shared branches."')
    expect(lessons[6]?.observation).toBe(
      'Asked "Which linters?", the user answered "Credo + Dialyxir".',
    )
    expect(lessons[7]?.details).toBe(
      'Rule: For each task, run `mix test` → `mix credo --strict` → `git commit`, in this order.',
    )
    expect(lessons[4]?.details).toBe('Rule: Never amend commits on shared branches.')
    // Nothing states what was done (the done list) or merely asks ("did you push?").
    expect(JSON.stringify(lessons)).not.toMatch(/now gets all features|did you push/)
  })
})
