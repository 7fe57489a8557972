/**
 * What the next session is shown, on hand-built sessions: a one-liner states the session's outcome
 * (not a stray wrap-up sentence about leftovers), a wrap-up's list of finished items never becomes
 * open work, and a diagnosis of a failure is never a decision.
 */
import { describe, expect, it } from 'vitest'
import {
  assistant,
  text,
  toolResult,
  toolUse,
  user,
} from '../../../../test/support/transcript-lines.ts'
import { sessionOneLiner } from '../../../brain/core/sleep-run/digest-document.ts'
import { belongsInCore, digestEntries } from '../../../brain/core/sleep-run/digest-entries.ts'
import { wrapUpOpenLines } from './assemble-digest.ts'
import { decisionCandidates } from './digest-decisions.ts'
import { DigestLineReader } from './digest-line-reader.ts'
import type { SessionDigest } from './session-digest.ts'
import { SessionDigestBuilder } from './session-digest-builder.ts'

let counter = 0
const id = () => `${(++counter).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`
const say = (words: string) => assistant(`m${counter}`, [text(words)], {}, { uuid: id() })
const bash = (toolId: string, command: string) =>
  assistant(`m${counter}`, [toolUse(toolId, 'Bash', { command })], {}, { uuid: id() })
const result = (toolId: string, output: string) =>
  toolResult(toolId, output, false).replace('"uuid":"u"', `"uuid":"${id()}"`)

function digestOf(lines: string[]): SessionDigest {
  const builder = new SessionDigestBuilder({ sessionId: 's-1' })
  const reader = new DigestLineReader(builder)
  reader.beginFile('s-1.jsonl', 'main')
  reader.push(Buffer.from(`${lines.join('\n')}\n`))
  return builder.build()
}

/** An epic of four subtasks, each closed and committed, then pushed; `wrapUp` is the last word. */
function epicSession(wrapUp: string): SessionDigest {
  const lines = [user('Implement app-k2p', { uuid: id() })]
  for (const n of [1, 2, 3, 4]) {
    lines.push(bash(`c${n}`, `bd close app-k2p.${n}`), result(`c${n}`, `Closed app-k2p.${n}`))
    lines.push(
      bash(`g${n}`, `git commit -m "feat: part ${n} (app-k2p.${n})"`),
      result(`g${n}`, `[main ${n}abc123] feat: part ${n}`),
    )
  }
  lines.push(bash('p', 'git push'), result('p', 'To origin\n   1abc..4abc  main -> main'))
  lines.push(say(wrapUp))
  return digestOf(lines)
}

describe("a session's one-liner states its outcome", () => {
  it('takes the wrap-up statement that reports the outcome, not the first one', () => {
    const line = sessionOneLiner(
      epicSession(
        'I looked at the pre-commit output once more. The epic is implemented and pushed, with every subtask closed.',
      ),
    )
    expect(line).toContain('The epic is implemented and pushed')
    expect(line).not.toContain('pre-commit output')
  })

  it('says what the record shows when the wrap-up only talks about leftovers', () => {
    const line = sessionOneLiner(
      epicSession('All done. The only remaining unstaged change is `.mcp.json`, which is local.'),
    )
    expect(line).not.toContain('.mcp.json')
    expect(line).toMatch(/: Closed 4 tasks of app-k2p, 4 commits, pushed\./)
  })
})

describe("a wrap-up's list of finished items is not open work", () => {
  it('skips items under a heading or lead-in of finished work, whatever words they hold', () => {
    const wrapUp = [
      'All done. Here is what was completed:',
      '',
      '- app-4te.6 - 12 new tests for the missing-field cases',
      '- app-4te.7 - filed the remaining lint fixes as one commit',
      '',
      '**Discovered & filed:** `app-4te.9` — the importer drops the `agent_id` field.',
      '',
      'Remaining:',
      '- the README still describes the old flag',
    ].join('\n')
    expect(wrapUpOpenLines(wrapUp)).toEqual([
      'Discovered & filed: `app-4te.9` — the importer drops the `agent_id` field.',
      'the README still describes the old flag',
    ])
  })

  it('skips an item that ticks itself off', () => {
    expect(wrapUpOpenLines('- ✅ app-4te.6: missing tests added\n- [x] follow-up filed')).toEqual(
      [],
    )
  })

  it('never routes a report of finished work to Known Issues', () => {
    expect(belongsInCore('open', 'From the wrap-up: Added 12 new tests for the gap')).toBe(false)
    expect(belongsInCore('open', '`app-4te.9` is open: the importer drops agent_id')).toBe(true)
  })
})

describe('Technical Decisions hold decisions only', () => {
  it.each([
    'The issue is that the macro itself requires OpenTelemetry.Tracer.',
    'The real problem was that the spec requires a token per request.',
    "That's because the task requires the old endpoint to keep working.",
  ])('a diagnosis is no decision: %s', (sentence) => {
    expect(decisionCandidates(sentence, 'u', 0)).toEqual([])
    expect(belongsInCore('decisions', sentence)).toBe(false)
  })

  it('a choice that names a requirement still is one', () => {
    const sentence = 'The spec requires a one-time token, so the context travels through the API.'
    expect(decisionCandidates(sentence, 'u', 0)).toHaveLength(1)
    expect(belongsInCore('decisions', sentence)).toBe(true)
  })

  it("keeps a digest's diagnosis out of the memory file", () => {
    const digest = epicSession('The epic is implemented and pushed.')
    const withDiagnosis: SessionDigest = {
      ...digest,
      decisions: [
        { text: 'The issue is that the macro itself requires OpenTelemetry.Tracer.', sources: [] },
        { text: 'Tokens live in ETS rather than a table, to avoid a migration.', sources: [] },
      ],
    }
    const decisions = digestEntries([withDiagnosis])
      .filter((entry) => entry.destination.section === 'Technical Decisions')
      .map((entry) => entry.text)
    expect(decisions).toEqual(['Tokens live in ETS rather than a table, to avoid a migration.'])
  })
})
