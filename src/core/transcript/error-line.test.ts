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
})
