/**
 * The line of a failed tool call's output that says what went wrong. The first line is often
 * `Exit code 1`, a compiler banner or a test runner's seed; the reader needs `fatal: ...`,
 * `error[E0308]: ...`, `** (RuntimeError) ...` or the last line of a Python traceback.
 */

/** Lines that name an error in the usual notations of compilers, runtimes, shells and test runners. */
const ERROR_LINE_PATTERNS: readonly RegExp[] = [
  /^\s*(?:error|fatal|panic)(?:\[[^\]]*\])?\s*:/i,
  /\b[A-Z]\w*(?:Error|Exception)\b\s*[:)]/,
  /\bpanicked at\b/,
  /\[ERROR\]/,
  /^\s*(?:FAIL|FAILED)\b/,
  /\bFAILED\b/,
  /^\s*E\s{2,}\S/,
  // From the first "assertion" only: tried at each of `Assertion Assertion …`, `.*` read to the
  // end of the line from each, quadratic on tool output built for it.
  /^(?:(?!\b[Aa]ssertion\b).)*\b[Aa]ssertion\b.*\bfailed\b/,
  /<tool_use_error>/,
  /\bcommand not found\b|\bNo such file or directory\b|\bPermission denied\b/,
]

/**
 * Lines that carry no content of their own (the shell's exit status, blank lines), tested on the
 * trimmed line: `^\s*…\s*$` split a long run of spaces between its two `\s*` every way, quadratic.
 */
const EMPTY_LINE = /^(?:Exit code \d+)?$/

/** The first line of `output` that names an error (else its first line with content), trimmed. */
export function errorLineOf(output: string): string {
  const lines = output.split('\n')
  const traceback = lines.findIndex((line) => line.startsWith('Traceback (most recent call last)'))
  if (traceback !== -1) {
    // Python prints frames indented and the exception itself at the left margin, after them.
    const exception = lines.slice(traceback + 1).find((line) => /^\S/.test(line))
    if (exception !== undefined) return tidy(exception)
  }
  const hit = lines.find((line) => ERROR_LINE_PATTERNS.some((pattern) => pattern.test(line)))
  if (hit !== undefined) return tidy(hit)
  return tidy(lines.find((line) => !EMPTY_LINE.test(line.trim())) ?? '')
}

function tidy(line: string): string {
  return line
    .replace(/<\/?tool_use_error>/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}
