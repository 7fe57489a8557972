/**
 * Text a creature stores or shows, made inert: control characters (NUL, ESC and the rest, DEL, C1)
 * become their visible Unicode control pictures, so `\x1b[2J` in a tool's output or a speaker's
 * name is shown as `␛[2J` instead of clearing a terminal, and NUL never reaches a markdown file.
 * Line feeds and tabs are text; a carriage return is one only before a line feed.
 */

/** `text` with every control character but `\n` and `\t` replaced by a visible picture. */
export function plainText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, picture)
}

/** One line of plain text: every run of white space a single space. */
export function plainLine(text: string): string {
  return plainText(text).replace(/\s+/g, ' ').trim()
}

function picture(character: string): string {
  const code = character.charCodeAt(0)
  if (code < 0x20) return String.fromCharCode(0x2400 + code)
  if (code === 0x7f) return '\u2421'
  return '\ufffd'
}
