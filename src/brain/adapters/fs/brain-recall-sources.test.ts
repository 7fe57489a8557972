import { describe, expect, it } from 'vitest'
import { lineAt } from './brain-recall-sources.ts'

describe('lineAt', () => {
  it('gives each line as splitting the text at line ends would', () => {
    const texts = ['a\nb\r\nc', 'one\r\n\r\nthree\n', 'lone\rreturn\nend\r', '', '\n\n', 'x']
    for (const text of texts) {
      const lines = text.split(/\r?\n/)
      for (let line = -1; line <= lines.length + 2; line += 1)
        expect(lineAt(text, line)).toBe(line >= 1 ? lines[line - 1] : undefined)
    }
    expect(lineAt('a\nb', 1.5)).toBeUndefined()
  })
})
