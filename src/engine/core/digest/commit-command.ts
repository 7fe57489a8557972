/**
 * Commit messages from the shell commands an agent ran: `git commit -m "..."` (one or more `-m`),
 * and the here-document form Claude Code favours (`-m "$(cat <<'EOF' ... EOF)"`, `-F - <<EOF`).
 * The message is what the agent itself said the change was: the best one-line record of work.
 */

/** A commit message: its subject line and the rest. */
export interface CommitMessage {
  subject: string
  body: string
}

/** `git [-C dir] commit` at the start of a command segment. */
const GIT_COMMIT = /(?:^|[;&|(\n]\s*|&&\s*)git(?:\s+-[Cc]\s+\S+)*\s+commit\b([^\n]*)/

/** The message of the `git commit` in `command`, or null when it commits none (or none is given). */
export function commitMessageOf(command: string): CommitMessage | null {
  const match = GIT_COMMIT.exec(command)
  if (match === null) return null
  const from = match.index + match[0].length - (match[1] ?? '').length
  const rest = command.slice(from)
  const heredoc = hereDocumentBody(rest)
  const text = heredoc ?? messageOptions(rest)
  if (text === null) return null
  const lines = text.replace(/\r/g, '').split('\n')
  const subject = (lines[0] ?? '').trim()
  if (subject === '') return null
  return { subject, body: lines.slice(1).join('\n').trim() }
}

/** The body of the first here-document opened in `text` (`<<'EOF'`, `<<"EOF"`, `<<-EOF`). */
function hereDocumentBody(text: string): string | null {
  const opener = /<<-?\s*(['"]?)([\w-]+)\1[^\n]*\n/.exec(text)
  if (opener === null) return null
  const delimiter = opener[2] as string
  const start = opener.index + opener[0].length
  const lines = text.slice(start).split('\n')
  const end = lines.findIndex((line) => line.trim() === delimiter)
  return (end === -1 ? lines : lines.slice(0, end)).join('\n')
}

/** `-m x`, `-am x`, `--message=x`, each quoted or bare, joined as git joins them (blank line). */
function messageOptions(text: string): string | null {
  const pattern =
    /(?:^|\s)(?:-[a-zA-Z]*m|--message)(?:\s+|=)("(?:[^"\\]|\\.)*"|'[^']*'|\$'(?:[^'\\]|\\.)*'|[^\s;&|]+)/g
  const parts: string[] = []
  for (const match of text.matchAll(pattern)) parts.push(unquote(match[1] as string))
  return parts.length === 0 ? null : parts.join('\n\n')
}

function unquote(value: string): string {
  if (value.startsWith('"') && value.endsWith('"'))
    return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1')
  if (value.startsWith("$'") && value.endsWith("'"))
    return value.slice(2, -1).replace(/\\n/g, '\n').replace(/\\'/g, "'")
  if (value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1)
  return value
}

/** `[branch abc1234] subject` as git prints it after a commit: the short hash, or null. */
export function commitHashOf(output: string): string | null {
  const match = /^\[[^\]\n]*?\s([0-9a-f]{7,40})\]\s/m.exec(output)
  return match === null ? null : (match[1] as string)
}
