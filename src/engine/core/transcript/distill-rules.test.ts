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
})
