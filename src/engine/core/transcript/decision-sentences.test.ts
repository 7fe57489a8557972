import { describe, expect, it } from 'vitest'
import { decisionSentences } from './decision-sentences.ts'

describe('decisionSentences', () => {
  it.each([
    'Let me check the latest migration for patterns.',
    "I'll run the full test suite now.",
    'Now let me implement both tasks in parallel.',
    "Let's look at the router first.",
    'Now I will write the complete updated file.',
    'Good. I have full context now.',
    'All 43 tests pass, 0 failures.',
    'Let me apply all remaining changes in one batch to avoid intermediate warnings.',
  ])('narration or a report is not a decision: %s', (text) => {
    expect(decisionSentences(text)).toEqual([])
  })

  it('keeps a choice, with its reason, and drops the narration around it', () => {
    expect(
      decisionSentences(
        'Let me look at the options. We decided to use SQLite over Postgres because the app runs offline. Now let me write it.',
      ),
    ).toEqual(['We decided to use SQLite over Postgres because the app runs offline.'])
    expect(
      decisionSentences('- Going with a token store rather than an Agent for durability'),
    ).toEqual(['Going with a token store rather than an Agent for durability'])
  })

  it('keeps the step a stated reason leads to, and never cuts a sentence at an ellipsis', () => {
    expect(
      decisionSentences(
        "The migration uses `ALTER TABLE ... modify` which SQLite doesn't support. I need to rewrite it as a table copy.",
      ),
    ).toEqual([
      "The migration uses `ALTER TABLE ... modify` which SQLite doesn't support.",
      'I need to rewrite it as a table copy.',
    ])
  })
})
