import { describe, expect, it } from 'vitest'
import * as lines from '../../../../test/support/transcript-lines.ts'
import { distillTranscriptText } from './distill.ts'

/** The lines of one `### title` section ('' when the section is absent). */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`### ${title}\n`)
  if (start === -1) return ''
  const next = markdown.indexOf('\n### ', start + 4)
  return markdown.slice(start, next === -1 ? undefined : next)
}

describe('distillation keeps what a next session needs', () => {
  const run = (transcript: string[]) =>
    distillTranscriptText(transcript.join('\n'), { sessionId: 's-1' })

  it('lists only commands that change files or state as code changes', () => {
    const bash = (id: string, command: string) =>
      lines.assistant(`m-${id}`, [lines.toolUse(id, 'Bash', { command })])
    const changes = section(
      run([
        bash('b1', 'git status 2>&1'),
        bash('b2', 'git log --oneline -5'),
        bash('b3', 'git diff --stat'),
        bash('b4', 'mix test 2>&1 | tail -20'),
        bash('b5', "sed -n '1,40p' lib/app.ex"),
        bash('b6', 'git commit -m "feat: add review page"'),
        bash('b7', 'echo done > build.log'),
      ]),
      'Code Changes',
    )
    expect(changes).not.toContain('git status')
    expect(changes).not.toContain('git log')
    expect(changes).not.toContain('git diff')
    expect(changes).not.toContain('mix test')
    expect(changes).not.toContain('sed -n')
    expect(changes).toContain('- BASH `git commit -m "feat: add review page"`')
    expect(changes).toContain('- BASH `echo done > build.log`')
  })

  it('does not list narration as a decision, and keeps a choice with its reason', () => {
    const decisions = section(
      run([
        lines.assistant('m1', [lines.text('Let me check the latest migration for patterns.')]),
        lines.assistant('m2', [lines.text("Now I'll run the full test suite and credo.")]),
        lines.assistant('m3', [
          lines.text(
            'Good. We chose SQLite table recreation over ALTER TABLE because SQLite cannot change nullability.',
          ),
        ]),
      ]),
      'Agent Decisions & Reasoning',
    )
    expect(decisions).not.toContain('Let me')
    expect(decisions).not.toContain("Now I'll")
    expect(decisions).toBe(
      '### Agent Decisions & Reasoning\n- We chose SQLite table recreation over ALTER TABLE because SQLite cannot change nullability.\n',
    )
  })

  it('names a failed call by its real error line, not its first line of output', () => {
    const errors = section(
      run([
        lines.assistant('m1', [lines.toolUse('t1', 'Bash', { command: 'git push 2>&1' })]),
        lines.toolResult(
          't1',
          'Exit code 128\nfatal: The current branch topic has no upstream branch.\nTo push the current branch, use',
          true,
        ),
      ]),
      'Errors & Issues',
    )
    expect(errors).toContain(
      '- **Bash** `git push 2>&1` failed: `fatal: The current branch topic has no upstream branch.`',
    )
  })

  it('names a failed call with its secrets redacted, and a call that did not fail not at all', () => {
    const key = `sk-ant-api03-${'x7Q'.repeat(30)}`
    const markdown = run([
      lines.assistant('m1', [
        lines.toolUse('t1', 'Bash', {
          command: `curl -H "x-api-key: ${key}" -X POST https://api.example.com/v1/jobs > out.json`,
        }),
        lines.toolUse('t2', 'Read', { file_path: '/srv/app/never-failed.ts' }),
      ]),
      lines.toolResult('t1', 'Exit code 7\ncurl: (7) Failed to connect to api.example.com', true),
      lines.toolResult('t2', 'export const ok = true', false),
    ])
    expect(markdown).not.toContain(key)
    expect(section(markdown, 'Errors & Issues')).toMatch(
      /- \*\*Bash\*\* `curl -H .*\[redacted: anthropic key\].*` failed:/,
    )
    expect(section(markdown, 'Code Changes')).toMatch(
      /- BASH `curl -H .*\[redacted: anthropic key\]/,
    )
    expect(markdown).not.toContain('never-failed')
  })

  it('redacts a token wrapped over two lines of a failed command before joining its lines', () => {
    // Whitespace was collapsed before redaction: the line break that shows a wrapped token was
    // gone, so the token's second half was printed beside the marker for its first.
    const key = `sk-ant-api03-${'x7Q'.repeat(30)}`
    const markdown = run([
      lines.assistant('m1', [
        lines.toolUse('t1', 'Bash', {
          command: `export TOKEN=${key.slice(0, 40)}\n${key.slice(40)}`,
        }),
      ]),
      lines.toolResult('t1', 'Exit code 1', true),
    ])
    expect(section(markdown, 'Errors & Issues')).toContain('**Bash** `export TOKEN=[redacted')
    expect(markdown).not.toContain(key.slice(40, 70))
  })

  it('survives a tool input nested too deep to serialise, naming the failed call by its tool', () => {
    const depth = 20_000
    const deep = `{"rows":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const call = lines.assistant('m1', [lines.toolUse('t1', 'mcp__db__query')])
    const markdown = run([
      call.replace('"input":{}', `"input":${deep}`),
      lines.toolResult('t1', 'Error: too deep', true),
    ])
    expect(section(markdown, 'Errors & Issues')).toContain('- **mcp__db__query** failed:')
  })

  it('names a failed call each time its error result comes, also the second time', () => {
    const markdown = run([
      lines.assistant('m1', [lines.toolUse('t1', 'Bash', { command: 'npm publish' })]),
      lines.toolResult('t1', 'npm ERR! 403 Forbidden', true),
      lines.toolResult('t1', 'npm ERR! 403 Forbidden', true),
    ])
    expect(
      section(markdown, 'Errors & Issues').match(/\*\*Bash\*\* `npm publish` failed/g),
    ).toHaveLength(2)
  })

  it('describes a failed call once however often its error result is repeated', () => {
    // 500 copies of one error result for a 50 kB command: described (redacted) at each copy, this
    // took 7 s; the first description is kept.
    const command = `curl -d '${'token=abc123def456 '.repeat(2_700)}' https://api.example.com`
    const transcript = [lines.assistant('m1', [lines.toolUse('t1', 'Bash', { command })])]
    for (let copy = 0; copy < 500; copy++)
      transcript.push(lines.toolResult('t1', 'Exit code 1', true))
    const start = performance.now()
    const markdown = run(transcript)
    expect(performance.now() - start).toBeLessThan(2_000)
    expect(section(markdown, 'Errors & Issues').match(/\*\*Bash\*\* `curl/g)).toHaveLength(500)
  })
})
