import { describe, expect, it } from 'vitest'
import {
  aboveFloor,
  alreadyShown,
  promptTerms,
  renderPromptRecall,
  shownLines,
} from './prompt-recall.ts'

describe('prompt recall rules', () => {
  it('lets through only text that holds a third of the prompt terms, at least two', () => {
    const terms = promptTerms('why does the staging deploy hang on rsync?')
    expect(aboveFloor('The staging deploy needs the VPN; without it rsync hangs.', terms)).toBe(
      true,
    )
    expect(aboveFloor('We deploy on Fridays.', terms)).toBe(false)
    expect(aboveFloor('anything', promptTerms('yes'))).toBe(false)
    expect(aboveFloor('anything', promptTerms('ok, continue'))).toBe(false)
  })

  it('lets a code name alone through', () => {
    const terms = promptTerms('look at load_session_messages and the renderer and the live view')
    expect(aboveFloor('load_session_messages drops agent_id', terms)).toBe(true)
  })

  it('knows a line the snapshot showed, clipped or whole, comments aside', () => {
    const shown = shownLines(
      '## Known Issues\n- `spotter-fum.5` is open: load_session_messages drops agent_id field… <!-- sources: x -->\nok',
    )
    expect(shown).toHaveLength(1)
    expect(
      alreadyShown(
        '`spotter-fum.5` is open: load_session_messages drops agent_id field, breaking detection',
        shown,
      ),
    ).toBe(true)
    expect(alreadyShown('The staging deploy needs the VPN', shown)).toBe(false)
  })

  it('renders at most five hits in 1,500 characters, each with its place', () => {
    const hits = Array.from({ length: 8 }, (_, index) => ({
      location: `_agent_context/core/2.memory.md:${index + 1}`,
      text: 'x',
      snippet: `fact ${index} ${'word '.repeat(100)}`,
    }))
    const text = renderPromptRecall(hits) ?? ''
    expect(text.length).toBeLessThanOrEqual(1500)
    const lines = text.split('\n').slice(1)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.length).toBeLessThanOrEqual(5)
    for (const line of lines)
      expect(line).toMatch(/^- _agent_context\/core\/2\.memory\.md:\d+: fact/)
    expect(renderPromptRecall([])).toBeNull()
  })
})
