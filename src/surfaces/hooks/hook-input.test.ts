import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HOOK_EVENTS, isHookEvent, parseHookInput, schemaFor } from './hook-input.ts'

/** Verbatim stdin Claude Code 2.1.329 gave a Stop hook (paths shortened). */
const REAL_STOP = {
  session_id: 'ec2f3b1c-d90a-4c7e-a8f5-123aaa850f34',
  transcript_path: '/home/u/.claude/projects/-tmp-proj/ec2f3b1c-d90a-4c7e-a8f5-123aaa850f34.jsonl',
  cwd: '/tmp/proj',
  prompt_id: 'ac2f764b-507e-4a6e-bde0-6151a0828b56',
  permission_mode: 'default',
  effort: { level: 'medium' },
  hook_event_name: 'Stop',
  stop_hook_active: false,
  last_assistant_message: 'All done: wrote and edited a.txt.',
  background_tasks: [],
  session_crons: [],
}

describe('parseHookInput', () => {
  it('reads a real Stop payload and keeps unknown fields', () => {
    const parsed = parseHookInput('stop', JSON.stringify(REAL_STOP))
    expect(parsed).toEqual({ ok: true, input: REAL_STOP })
  })

  it('accepts missing and null optional fields', () => {
    expect(parseHookInput('session-start', '{"source":null}')).toEqual({
      ok: true,
      input: { source: null },
    })
    expect(parseHookInput('pre-compact', '  ')).toEqual({ ok: true, input: {} })
  })

  it('reports text that is not a JSON object, and fields of the wrong type', () => {
    expect(parseHookInput('stop', 'hello')).toEqual({
      ok: false,
      problem: 'stdin is not JSON (5 chars: hello)',
    })
    const key = 'sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefgh'
    const cut = parseHookInput('user-prompt-submit', `{"prompt":"my key ${key}" and then`)
    expect(cut).toMatchObject({ ok: false, problem: /\[redacted: anthropic key\]/ })
    expect(JSON.stringify(cut)).not.toContain(key.slice(0, 24))
    expect(parseHookInput('stop', '[1]')).toMatchObject({ ok: false, problem: /not a JSON object/ })
    expect(parseHookInput('session-end', '{"reason":5}')).toMatchObject({
      ok: false,
      problem: /stdin field "reason"/,
    })
  })

  it('knows its events by command-line name', () => {
    expect(isHookEvent('user-prompt-submit')).toBe(true)
    expect(isHookEvent('UserPromptSubmit')).toBe(false)
    expect(isHookEvent('toString')).toBe(false)
  })
})

describe('parseHookInput against the zod schemas', () => {
  const anyJson = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string({ maxLength: 3 }),
    fc.array(fc.integer(), { maxLength: 1 }),
  )
  const fields = [
    'session_id',
    'cwd',
    'source',
    'reason',
    'prompt',
    'stop_hook_active',
    'agent_type',
    'extra',
    '__proto__',
  ]
  it('gives what the schema gives, and words its first problem', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...HOOK_EVENTS),
        fc.dictionary(fc.constantFrom(...fields), anyJson, { maxKeys: 4 }),
        (event, payload) => {
          const text = JSON.stringify(payload)
          const parsed = schemaFor(event).safeParse(JSON.parse(text))
          const result = parseHookInput(event, text)
          if (parsed.success) {
            expect(result.ok).toBe(true)
            if (result.ok) expect(JSON.stringify(result.input)).toBe(JSON.stringify(parsed.data))
          } else {
            expect(result).toMatchObject({ ok: false })
            if (!result.ok) expect(result.problem).toContain(parsed.error.issues[0]?.message)
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})
