/**
 * Text made safe for a log line: control characters (a newline or carriage return first of all),
 * the Unicode line and paragraph separators and DEL are written as escapes, so nothing a client
 * sends (a request path decoded from `%0A`, a header, an error quoting its input) can start a line
 * of its own and forge a log entry.
 */

/** `text` with every control character escaped (`\n`, `\r`, `\t`, else `\xNN` / `\uNNNN`). */
export function escapeLogText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it escapes
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]/g, (character) => {
    if (character === '\\') return '\\\\'
    if (character === '\n') return '\\n'
    if (character === '\r') return '\\r'
    if (character === '\t') return '\\t'
    const code = character.charCodeAt(0)
    return code < 0x100
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`
  })
}

/**
 * `text` as inert log text: control characters escaped (escapeLogText), and what a shell would
 * run if the log were ever sourced (`$(`, `${`, a backquote) escaped too, so attacker text that
 * reaches a log line (a repository's settings, a transcript path) stays text wherever it lands.
 */
export function inertLogText(text: string): string {
  return escapeLogText(text)
    .replaceAll('`', '\\x60')
    .replaceAll('$(', '$\\x28')
    .replaceAll('${', '$\\x7b')
}
