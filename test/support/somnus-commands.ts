/**
 * The Somnus commands a text tells Claude to run: every inline code span that starts with the
 * command of an install (`"<node>" "<package>/bin/somnus.js" sleep start`), and how to run one.
 */

/** The code spans of `text` that run `command` (the command alone, or followed by arguments). */
export function commandsIn(text: string, command: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '')
  return spans.filter((span) => span === command || span.startsWith(`${command} `))
}

/** Code spans that call a bare `somnus`, which fails where Somnus is a dev dependency. */
export function bareSomnusCommands(text: string): string[] {
  return [...text.matchAll(/`(somnus [^`\n]*)`/g)].map((match) => match[1] ?? '')
}

/** The `<...>` placeholders of a command, by name (`<session_id>` → `session_id`). */
export function placeholdersOf(command: string): string[] {
  return [...command.matchAll(/<([^<>]+)>/g)].map((match) => match[1] ?? '')
}

/** The command with each placeholder replaced by `values[name]` (or `value(name)`). */
export function fillPlaceholders(command: string, value: (name: string) => string): string {
  return command.replace(/<([^<>]+)>/g, (_, name: string) => value(name))
}
