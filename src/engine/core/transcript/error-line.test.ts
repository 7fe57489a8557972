import { describe, expect, it } from 'vitest'
import { errorLineOf } from './error-line.ts'

describe('errorLineOf', () => {
  it.each([
    [
      'Exit code 128\nfatal: The current branch x has no upstream branch.\nTo push, use',
      'fatal: The current branch x has no upstream branch.',
    ],
    [
      'Exit code 1\nCompiling 4 files (.ex)\n    warning: unused\n     error: undefined function get/2 (expected X)\n     │',
      'error: undefined function get/2 (expected X)',
    ],
    [
      'Exit code 2\nRunning ExUnit with seed: 1\n\n  1) test mount (XTest)\n     ** (RuntimeError) no :secret_key_base configuration found',
      '** (RuntimeError) no :secret_key_base configuration found',
    ],
    [
      'Exit code 1\nTraceback (most recent call last):\n  File "<string>", line 6, in <module>\n    obj = loads(s)\n          ^^^^\njson.decoder.JSONDecodeError: Unterminated string',
      'json.decoder.JSONDecodeError: Unterminated string',
    ],
    [
      "Exit code 101\n   Compiling x v0.1.0\nthread 'main' panicked at src/main.rs:2:5:\nboom",
      "thread 'main' panicked at src/main.rs:2:5:",
    ],
    [
      'Exit code 1\n ✘ [ERROR] Could not resolve "js/app.js"\n\n1 error',
      '✘ [ERROR] Could not resolve "js/app.js"',
    ],
    ['<tool_use_error>File does not exist.</tool_use_error>', 'File does not exist.'],
    [
      'Exit code 1\n\n RUN  v4\n FAIL  src/a.test.ts > adds\nAssertionError: expected 1 to be 2',
      'FAIL src/a.test.ts > adds',
    ],
  ])('finds the error line in %j', (output, line) => {
    expect(errorLineOf(output)).toBe(line)
  })

  it('falls back to the first line with content, never the exit status', () => {
    expect(errorLineOf('Exit code 1\nThe following paths are ignored:\npriv/static')).toBe(
      'The following paths are ignored:',
    )
    expect(errorLineOf('')).toBe('')
  })

  it('reads an assertion failure, and tool output built to make a line scan quadratic', () => {
    expect(errorLineOf('ok\nAssertion `x > 0` failed.\n')).toBe('Assertion `x > 0` failed.')
    expect(errorLineOf('  Exit code 2  \n\nnext')).toBe('next')
    // Not a timed test: CPU time against ordinary tool output of the same size, in the same
    // process. Before, a run of spaces was split between two `\s*` every way and `.*` read to the
    // line's end from each "Assertion": 64 kB of either took seconds, thousands of times more.
    const size = 64 * 1024
    const cpuMs = (output: string) => {
      const before = process.cpuUsage()
      errorLineOf(output)
      const used = process.cpuUsage(before)
      return (used.user + used.system) / 1000
    }
    const ordinary = `Exit code 1\n${'   Compiling module 42 of the workspace\n'.repeat(size / 40)}`
    const baseline = Math.max(1, Math.min(...[1, 2, 3].map(() => cpuMs(ordinary))))
    const assertions = 'Assertion '.repeat(size / 10)
    expect(errorLineOf(`${' '.repeat(size)}x`)).toBe('x')
    expect(errorLineOf(assertions)).toBe(assertions.trim())
    for (const crafted of [`${' '.repeat(size)}x`, assertions]) {
      // The least of up to three runs: a loaded machine slows a run, never speeds one up.
      let best = Number.POSITIVE_INFINITY
      for (let attempt = 0; attempt < 3 && best / baseline >= 20; attempt++)
        best = Math.min(best, cpuMs(crafted))
      expect(best / baseline).toBeLessThan(20)
    }
  }, 20_000)
})
