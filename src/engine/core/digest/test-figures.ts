/**
 * Test results as the runners print them (`87 tests, 0 failures`, `Tests  16 passed (16)`,
 * `5 passed, 1 failed in 0.12s`, `test result: ok. 12 passed; 0 failed`). A digest keeps only the
 * last figure of a session: an earlier count is stale the moment a later run prints another.
 */

/** Words that run a test suite, in the usual runners' spellings (`mix test`, `npx vitest`). */
const TEST_WORDS = new Set([
  'test',
  'tests',
  'vitest',
  'jest',
  'pytest',
  'mocha',
  'rspec',
  'phpunit',
  'ctest',
  'ava',
  'unittest',
  'nextest',
])

/** True when `command` runs tests: a runner's word as a command word, not inside a path. */
export function runsTests(command: string): boolean {
  // A commit message or any quoted text is data: "test: add coverage" runs nothing.
  const code = withoutHereDocuments(command).replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""')
  return code.split(/&&|\|\||[;|\n]/).some((segment) =>
    segment
      .trim()
      .split(/\s+/)
      .slice(0, 4)
      .some((word) => TEST_WORDS.has(word)),
  )
}

/** A runner's summary line: a count next to tests, passed, failed or failures. */
const FIGURE_LINE =
  /\b\d+\s+(?:tests?|doctests?|properties|passed|passing|failures?|failed|failing|examples?|specs?)\b/i

/** Lines that look like a figure but are a file list or a log line. */
const NOT_A_SUMMARY = /^\s*(?:✓|✗|×|FAIL|PASS)\s+\S+\.\w+|\bwarning\b/i

/** Terminal colour codes some runners print even into a pipe. */
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** The last summary line of a test run's output, tidied (null when it prints none). */
export function testFigureOf(output: string): string | null {
  const lines = output.replace(ANSI_COLOUR, '').split('\n')
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string
    if (!FIGURE_LINE.test(line) || NOT_A_SUMMARY.test(line)) continue
    const tidy = line
      .replace(/[=\s]{3,}/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
    // Vitest prints `Test Files  3 passed (3)` above `Tests  16 passed (16)`: keep both.
    const above = lines[index - 1] ?? ''
    if (/^\s*Tests\s/.test(line) && /^\s*Test Files\s/.test(above))
      return `${above.replace(/\s+/g, ' ').trim()}; ${tidy}`
    return tidy.length > 160 ? null : tidy
  }
  return null
}

/** The command without here-document bodies (a commit message is data, not a command). */
export function withoutHereDocuments(command: string): string {
  return command.replace(/<<-?\s*(['"]?)([\w-]+)\1[^\n]*\n[\s\S]*?\n\s*\2\s*(?:\n|$)/g, '\n')
}
