/**
 * Issue 20: a fix is what made the failing command (or its test) pass afterwards, and an idea the
 * agent dropped is not a lesson. Each case is a small Claude Code session, read by the digest
 * builder and turned into pattern candidates as `patterns encode` does; every case failed before
 * (the fix was the next change the agent announced, for every open failure).
 */
import { describe, expect, it } from 'vitest'
import { DigestLineReader } from '../../src/engine/core/digest/digest-line-reader.ts'
import { SessionDigestBuilder } from '../../src/engine/core/digest/session-digest-builder.ts'
import { lessonsFromDigest } from '../../src/patterns/core/digest-lessons.ts'
import type { PatternCandidate } from '../../src/patterns/core/encode-plan.ts'
import { assistant, text, toolResult, toolUse, user } from '../support/transcript-lines.ts'

let counter = 0
const id = () => `${(++counter).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`
const say = (words: string) => assistant(`m${counter}`, [text(words)], {}, { uuid: id() })
const think = (words: string) =>
  assistant(`m${counter}`, [{ type: 'thinking', thinking: words }], {}, { uuid: id() })
const call = (toolId: string, name: string, input: object) =>
  assistant(`m${counter}`, [toolUse(toolId, name, input)], {}, { uuid: id() })
const result = (toolId: string, output: string, isError = false) =>
  toolResult(toolId, output, isError).replace('"uuid":"u"', `"uuid":"${id()}"`)
const prompt = (words: string) => user(words, { uuid: id() })
const bash = (toolId: string, command: string) => call(toolId, 'Bash', { command })
const edit = (toolId: string, path: string, oldText: string, newText: string) =>
  call(toolId, 'Edit', {
    file_path: `/home/user/project/${path}`,
    old_string: oldText,
    new_string: newText,
  })

/** The pattern candidates `patterns encode` takes from a session of `lines`. */
function lessonsOf(...lines: string[]): PatternCandidate[] {
  const builder = new SessionDigestBuilder({ sessionId: 's-1', maxTokens: 100_000 })
  const reader = new DigestLineReader(builder)
  reader.beginFile('s-1.jsonl', 'main')
  reader.push(Buffer.from(`${lines.join('\n')}\n`))
  return lessonsFromDigest(builder.build())
}

const about = (lessons: PatternCandidate[], words: RegExp) =>
  lessons.filter((lesson) => words.test(`${lesson.title} ${lesson.observation}`))

describe('a fix is what made the failing command pass', () => {
  it('a change followed by the same failure is not the fix', () => {
    const lessons = lessonsOf(
      prompt('Make dialyzer pass'),
      bash('t1', 'mix dialyzer'),
      result('t1', 'lib/trace.ex:12: Function get_current_trace_id/0 has no local return', true),
      say('Let me add a spec to `get_current_trace_id`.'),
      edit(
        'e1',
        'lib/trace.ex',
        'def get_current_trace_id do',
        '@spec get_current_trace_id() :: String.t() | nil\ndef get_current_trace_id do',
      ),
      bash('t2', 'mix dialyzer'),
      result('t2', 'lib/trace.ex:13: Function get_current_trace_id/0 has no local return', true),
      say('The spec annotation did not help. The span context can be undefined here.'),
      edit(
        'e2',
        'lib/trace.ex',
        'ctx = Tracer.current_span_ctx()',
        'ctx = Tracer.current_span_ctx() || :undefined',
      ),
      bash('t3', 'mix dialyzer'),
      result('t3', 'done (passed successfully)'),
    )
    const [lesson] = about(lessons, /no local return/)
    expect(lesson?.details).toContain('Tracer.current_span_ctx() || :undefined')
    expect(lesson?.details).not.toMatch(/spec/i)
  })

  it("each failure of one command keeps its own fix, never the next failure's", () => {
    const lessons = lessonsOf(
      prompt('Add the review page tests'),
      bash('t1', 'mix test test/review_live_test.exs'),
      result(
        't1',
        '** (RuntimeError) Phoenix LiveView requires lazy_html as a test dependency.',
        true,
      ),
      say('Need lazy_html as a test dependency.'),
      edit(
        'e1',
        'mix.exs',
        '{:credo, "~> 1.7"},',
        '{:lazy_html, ">= 0.1.0", only: :test},\n{:credo, "~> 1.7"},',
      ),
      bash('t2', 'mix deps.get'),
      result('t2', '* Getting lazy_html (Hex package)'),
      bash('t3', 'mix test test/review_live_test.exs'),
      result(
        't3',
        '1) test mount renders\n     Assertion with =~ failed\n     code: assert html =~ "Review"',
        true,
      ),
      say(
        'The LiveView runs in a separate process that cannot see the test sandbox. I need to use `:auto` mode.',
      ),
      call('r1', 'Read', { file_path: '/home/user/project/test/review_live_test.exs' }),
      result('r1', 'setup do\n  Sandbox.checkout(Repo)\nend'),
      edit(
        'e2',
        'test/review_live_test.exs',
        'Sandbox.checkout(Repo)',
        ':ok = Sandbox.checkout(Repo)\nSandbox.mode(Repo, {:shared, self()})',
      ),
      bash('t4', 'mix test test/review_live_test.exs'),
      result('t4', '5 tests, 0 failures'),
    )
    const [lazy] = about(lessons, /lazy_html/)
    expect(lazy?.details).toMatch(/lazy_html.*mix deps\.get|mix\.exs/)
    expect(lazy?.details).not.toMatch(/shared|sandbox/i)
    const [sandbox] = about(lessons, /Assertion/)
    expect(sandbox?.details).toContain('{:shared, self()}')
    // The idea the agent announced and did not carry out is not the fix.
    expect(sandbox?.details).not.toContain(':auto')
  })

  it('a compound command counts by its parts: `bd sync --import-only && bd ready` fixes `bd ready`', () => {
    const lessons = lessonsOf(
      prompt('What is ready?'),
      bash('t1', 'bd ready'),
      result('t1', "Error: database out of sync with JSONL; run 'bd sync --import-only'", true),
      bash('t2', 'bd sync --import-only && bd ready'),
      result('t2', 'Import complete: 3 updated\n📋 Ready work (2 issues with no blockers)'),
    )
    const [lesson] = about(lessons, /out of sync/)
    expect(lesson?.category).toBe('tool-failure')
    expect(lesson?.details).toContain('`bd sync --import-only && bd ready`')
  })

  it('a tracked file in an ignored folder needs `git add -f`, not the add that left it out', () => {
    const lessons = lessonsOf(
      prompt('Commit the styles'),
      bash('t1', 'git add lib/app.ex priv/static/assets/app.css'),
      result(
        't1',
        'The following paths are ignored by one of your .gitignore files:\npriv/static/assets\nhint: Use -f if you really want to add them.',
        true,
      ),
      bash('t2', 'git add lib/app.ex'),
      result('t2', ''),
      bash('t3', 'git add -f priv/static/assets/app.css && git commit -m "feat: styles"'),
      result('t3', '[main 1a2b3c4] feat: styles'),
    )
    const [lesson] = about(lessons, /ignored/)
    expect(lesson?.details).toContain('`git add -f priv/static/assets/app.css`')
  })

  it('a hook that cannot be bypassed with --no-verify: the fix is what made the plain commit pass', () => {
    const lessons = lessonsOf(
      prompt('Commit it'),
      bash('t1', 'git commit -m "feat: x"'),
      result(
        't1',
        'pre-commit: [LINT] 2 problems in lib/a.ts\nhusky - pre-commit hook exited with code 1 (error)',
        true,
      ),
      bash('t2', 'git commit --no-verify -m "feat: x"'),
      result(
        't2',
        'error: --no-verify is refused in this repository: the pre-commit hook cannot be bypassed',
        true,
      ),
      say('The hook cannot be bypassed, so the lint problems must be fixed.'),
      bash('t3', 'npx biome check --write lib/a.ts'),
      result('t3', 'Fixed 2 files'),
      bash('t4', 'git commit -m "feat: x"'),
      result('t4', '[main 9f8e7d6] feat: x'),
    )
    const [bypass] = about(lessons, /cannot be bypassed|no-verify/)
    expect(bypass?.details).toMatch(/biome check --write/)
    expect(bypass?.details).not.toMatch(/Fix: `git commit --no-verify/)
    const [lint] = about(lessons, /LINT|pre-commit hook exited/)
    expect(lint?.details).toMatch(/biome check --write/)
  })

  it('says what the edit did when the agent did not announce it (`import Phoenix.ChannelTest`)', () => {
    const lessons = lessonsOf(
      prompt('Test the broadcast'),
      bash('t1', 'mix test test/room_channel_test.exs'),
      result(
        't1',
        'error: undefined function assert_broadcast/3 (expected RoomChannelTest to define such a function or for it to be imported)',
        true,
      ),
      say('The channel assertions live in the channel test helpers.'),
      edit(
        'e1',
        'test/room_channel_test.exs',
        'use ExUnit.Case',
        'use ExUnit.Case\nimport Phoenix.ChannelTest',
      ),
      bash('t2', 'mix test test/room_channel_test.exs'),
      result('t2', '3 tests, 0 failures'),
    )
    const [lesson] = about(lessons, /assert_broadcast/)
    expect(lesson?.details).toContain('import Phoenix.ChannelTest')
  })

  it("keeps a cause that ends in a colon before the agent's code block", () => {
    const lessons = lessonsOf(
      prompt('Run the LiveView tests'),
      bash('t1', 'mix test'),
      result(
        't1',
        '** (RuntimeError) no :secret_key_base configuration found in MyAppWeb.Endpoint.',
        true,
      ),
      say(
        'The test environment has no endpoint configuration:\n```elixir\nconfig :my_app, MyAppWeb.Endpoint, secret_key_base: "..."\n```',
      ),
      edit(
        'e1',
        'config/test.exs',
        'import Config',
        'import Config\nconfig :my_app, MyAppWeb.Endpoint, server: false, secret_key_base: String.duplicate("a", 64)',
      ),
      bash('t2', 'mix test'),
      result('t2', '12 tests, 0 failures'),
    )
    const [lesson] = about(lessons, /secret_key_base/)
    expect(lesson?.details).toMatch(/Cause: The test environment has no endpoint configuration/)
  })

  it("a test whose expectation was rewritten to pass teaches nothing; the agent's own unfinished edits neither", () => {
    const lessons = lessonsOf(
      prompt('Add the badge'),
      edit(
        'e1',
        'lib/view.ex',
        'class={row_classes(line)}',
        'class={transcript_row_classes(line)}',
      ),
      bash('t1', 'mix compile'),
      result(
        't1',
        'error: undefined function transcript_row_classes/1 (expected View to define such a function)',
        true,
      ),
      edit(
        'e2',
        'lib/view.ex',
        'end\nend',
        'defp transcript_row_classes(line), do: ["row"]\nend\nend',
      ),
      bash('t2', 'mix compile'),
      result('t2', 'Generated app'),
      bash('t3', 'mix test'),
      result(
        't3',
        '1) test badge\n     Assertion with =~ failed\n     code: assert html =~ ">agent</span>"',
        true,
      ),
      say('The badge text has whitespace around it.'),
      edit(
        'e3',
        'test/view_test.exs',
        'assert html =~ ">agent</span>"',
        'assert html =~ "subagent-badge"',
      ),
      bash('t4', 'mix test'),
      result('t4', '4 tests, 0 failures'),
    )
    const gotchas = lessons.filter(
      (lesson) => !['convention', 'user-preference'].includes(lesson.category),
    )
    expect(gotchas.map((lesson) => lesson.title)).toEqual([])
  })
})

describe('an idea the agent dropped is not a lesson', () => {
  it('an option weighed in thinking and never carried out, or a choice between two options, is no decision', () => {
    const lessons = lessonsOf(
      prompt('Launch the review session'),
      think(
        "I'm weighing an Ash resource for the tokens against an ETS table; the spec calls for consumption tracking, so I'll go with the Ash resource for durability.",
      ),
      say(
        'Let me use a different approach - extract the `Tmux.launch` call into a helper or use `apply/3` instead of the direct call.',
      ),
      say('First, the token store: an ETS-backed GenServer, like `SessionRegistry`.'),
      call('w1', 'Write', {
        file_path: '/home/user/project/lib/review_token_store.ex',
        content: 'defmodule ReviewTokenStore do\n  use GenServer\n  @table __MODULE__\nend\n',
      }),
      result('w1', 'File created successfully'),
      prompt('did you push?'),
    )
    expect(lessons.filter((lesson) => lesson.category === 'architectural-decision')).toEqual([])
  })

  it('a decision the session acted on stays, with its reason', () => {
    const lessons = lessonsOf(
      prompt('Add options to the renderer'),
      think(
        "The public API requires `render/1` to keep working, so I'll have it delegate to a new `render/2` that accepts `session_cwd`.",
      ),
      edit(
        'e1',
        'lib/renderer.ex',
        'def render(messages) do',
        'def render(messages), do: render(messages, [])\n\ndef render(messages, opts) do\n  session_cwd = opts[:session_cwd]',
      ),
      result('e1', 'The file has been updated successfully.'),
    )
    const [decision] = lessons.filter((lesson) => lesson.category === 'architectural-decision')
    expect(decision?.title).toContain('`render/2`')
    expect(decision?.details).toContain('render/1')
  })
})

describe("the user's words", () => {
  it('"continue until all are done" is a rule', () => {
    const lessons = lessonsOf(
      prompt('Work on the epic'),
      say('Task 1 is done. Shall I go on?'),
      prompt('continue until all are done'),
      say('Continuing with task 2.'),
    )
    const rules = lessons.filter((lesson) => lesson.category === 'user-preference')
    expect(rules.map((rule) => rule.details).join('\n')).toMatch(/continue until all are done/i)
  })
})
