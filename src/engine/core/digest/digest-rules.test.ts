/** The digest's judgement calls on hand-built text: decisions, change notes, summary, working style. */
import { describe, expect, it } from 'vitest'
import { announcedChange, openingDocComment } from './change-notes.ts'
import { decisionCandidates, pickDecisions } from './digest-decisions.ts'
import { commandForm, workflowOf } from './working-style.ts'

const decisions = (text: string) => decisionCandidates(text, 'u', 0).map((entry) => entry.text)

describe('decisions', () => {
  it.each([
    'The compilation is still failing because of stale build artifacts.',
    'The alias is unused because I have not added the code that uses it yet.',
    'Let me check how the renderer is called before changing anything here.',
    'The assistant message type is correct since thinking blocks are nested rather than standalone.',
    'I should ask the user whether to skip the hook or fix the issues instead.',
  ])('an explanation or narration is no decision: %s', (sentence) => {
    expect(decisions(sentence)).toEqual([])
  })

  it.each([
    'Store `messages.id`, not the JSONL uuid, because ids from other sessions must not match.',
    "I'll go with an ETS table since a migration for short-lived tokens is overkill.",
    'Used string prefix replacement for path relativization instead of a regex.',
    'The spec forbids a temp file, so the context travels through the API.',
  ])('a choice with its reason is one: %s', (sentence) => {
    expect(decisions(sentence)).toHaveLength(1)
  })

  it('keeps the later of two takes on the same choice', () => {
    const candidates = [
      ...decisionCandidates('I will go with an Ash resource for token storage durability.', 'a', 0),
      ...decisionCandidates(
        'Actually, an ETS-backed store for token storage is simpler than an Ash resource.',
        'b',
        0,
      ),
    ]
    const picked = pickDecisions(candidates, 5)
    expect(picked).toHaveLength(1)
    expect(picked[0]?.text).toContain('ETS-backed')
  })
})

describe('change notes', () => {
  it('turns the announcement before an edit into what changed', () => {
    expect(announcedChange('Good. Now add the `TranscriptSelection` hook to app.js.')).toBe(
      'add the `TranscriptSelection` hook to app.js',
    )
    expect(announcedChange('The test config is missing `secret_key_base`. Let me add it.')).toBe(
      'the test config is missing `secret_key_base`: add it',
    )
  })

  it('says nothing for narration or generic steps', () => {
    expect(announcedChange('Let me check the tests first.')).toBe('')
    expect(announcedChange('Now let me apply all the remaining changes.')).toBe('')
  })

  it("reads a new file's opening doc comment", () => {
    expect(
      openingDocComment(
        'lib/a.ex',
        'defmodule A do\n  @moduledoc """\n  Stores one-time tokens.\n  More.\n  """',
      ),
    ).toBe('Stores one-time tokens')
    expect(
      openingDocComment('s.sh', '#!/usr/bin/env bash\n# Fetches review context.\nset -e'),
    ).toBe('Fetches review context')
    expect(openingDocComment('a.ts', '/**\n * Parses the ledger.\n */\nexport {}')).toBe(
      'Parses the ledger',
    )
    expect(openingDocComment('a.ex', 'defmodule A do\n  @moduledoc false\nend')).toBe('')
  })
})

describe('workflow', () => {
  const step = (command: string, uuid = 'u') => {
    const key = command.split(' ').slice(0, 2).join(' ')
    return { key, form: commandForm(command, key), uuid }
  }

  it('spells a step with its options, without paths, ids, messages or pipes', () => {
    expect(commandForm('mix compile --warnings-as-errors 2>&1 | tail -20', 'mix compile')).toBe(
      'mix compile --warnings-as-errors',
    )
    expect(commandForm('bd update app-1.2 --status in_progress', 'bd update')).toBe(
      'bd update --status in_progress',
    )
    expect(commandForm('git commit -m "feat: x"', 'git commit')).toBe('git commit')
  })

  it('reports the sequence repeated for each committed piece of work, in order', () => {
    const piece = (n: number) => [
      step('bd update x --status in_progress'),
      step(`mix test test/a_${n}_test.exs`),
      step('mix credo --strict'),
      step('git commit -m "x"', `c${n}`),
      step('git push'),
    ]
    const log = [...piece(1), step('ls lib'), ...piece(2), ...piece(3)]
    const [workflow] = workflowOf(log, new Set(['c1', 'c2', 'c3']))
    expect(workflow?.text).toBe(
      'Per piece of work (3 times): `bd update --status in_progress` → `mix test` → `mix credo --strict` → `git commit` → `git push`.',
    )
    expect(workflowOf(log, new Set(['c1']))).toEqual([])
  })
})
