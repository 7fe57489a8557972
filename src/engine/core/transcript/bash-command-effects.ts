/**
 * Does a shell command change files or state? Distillation lists only such commands as code
 * changes: a session that ran `git status` forty times did not change forty things. The rules are
 * about what programs do (a write, a commit, a move, an install, a redirect into a file), not about
 * any one project, so an unknown program counts as read-only.
 */

/** Programs that always write, move or delete files, or change their permissions. */
const WRITING_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'ln',
  'chmod',
  'chown',
  'tee',
  'truncate',
  'dd',
  'install',
  'patch',
  'unzip',
  'rsync',
])

/** Git subcommands that change the work tree, the index, refs or a remote. */
const GIT_WRITES = new Set([
  'add',
  'am',
  'apply',
  'checkout',
  'cherry-pick',
  'clean',
  'clone',
  'commit',
  'init',
  'merge',
  'mv',
  'pull',
  'push',
  'rebase',
  'reset',
  'restore',
  'revert',
  'rm',
  'stash',
  'switch',
  'worktree',
])

/** Package-manager subcommands that install, remove or publish something. */
const PACKAGE_WRITES = new Set([
  'add',
  'ci',
  'get',
  'i',
  'install',
  'link',
  'publish',
  'remove',
  'rm',
  'uninstall',
  'update',
  'upgrade',
])

/** Programs whose second word says whether they install (npm i, pip install, cargo add, go get...). */
const PACKAGE_MANAGERS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'cargo',
  'go',
  'gem',
  'bundle',
  'composer',
  'brew',
  'apt',
  'apt-get',
  'dnf',
  'yum',
])

/** Words that run the next word as the command (`sudo rm`, `xargs rm`, `timeout 10 git push`). */
const WRAPPERS = new Set(['sudo', 'env', 'xargs', 'time', 'nohup', 'nice', 'exec', 'command'])

/** `gh` and similar CLIs: `gh pr create` changes a remote, `gh pr view` does not. */
const REMOTE_VERBS = new Set(['create', 'merge', 'close', 'reopen', 'edit', 'comment', 'delete'])

/** True when `command` writes, moves or deletes files, commits, installs, or redirects into a file. */
export function changesFilesOrState(command: string): boolean {
  const code = withoutQuotedText(withoutHeredocBodies(command))
  if (redirectsIntoFile(code)) return true
  return code
    .split(/&&|\|\||[;|&\n()`]/)
    .some((segment) => segmentChanges(segment.trim().split(/\s+/).filter(Boolean)))
}

function segmentChanges(words: string[]): boolean {
  let index = 0
  // Skip `FOO=bar` assignments, wrappers and a wrapper's numeric argument (`timeout 10`).
  while (index < words.length) {
    const word = words[index] as string
    if (/^\w+=/.test(word) || WRAPPERS.has(word) || word === 'timeout' || /^\d/.test(word)) index++
    else break
  }
  const program = (words[index] ?? '').replace(/^.*\//, '')
  const rest = words.slice(index + 1)
  const sub = rest.find((word) => !word.startsWith('-')) ?? ''
  if (WRITING_PROGRAMS.has(program)) return true
  if (program === 'sed' || program === 'perl')
    return rest.some((word) => /^-\w*i/.test(word) || word.startsWith('--in-place'))
  if (program === 'tar') return !rest.some((word) => /^-\w*t|^--list$/.test(word))
  if (program === 'find') return rest.some((word) => word === '-delete')
  if (program === 'git') {
    const [gitSub, action] = gitSubcommand(rest)
    return GIT_WRITES.has(gitSub) && action !== 'list' && action !== 'show'
  }
  if (program === 'gh') return rest.some((word) => REMOTE_VERBS.has(word))
  if (PACKAGE_MANAGERS.has(program)) {
    if (program === 'uv' && sub === 'pip') return PACKAGE_WRITES.has(rest[1] ?? '')
    if (program === 'go') return sub === 'get' || sub === 'install' || rest.join(' ') === 'mod tidy'
    return PACKAGE_WRITES.has(sub)
  }
  if (program === 'mix') return sub.startsWith('deps.get') || sub === 'format'
  // Formatters and linters that rewrite files say so with a flag.
  return rest.some((word) => word === '--write' || word === '--fix')
}

/** The git subcommand after global options such as `-C dir` or `-c key=value`, and the word after it. */
function gitSubcommand(words: string[]): [string, string] {
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string
    if (word === '-C' || word === '-c') index++
    else if (!word.startsWith('-')) return [word, words[index + 1] ?? '']
  }
  return ['', '']
}

/** `> file` or `>> file`, but not `2>&1`, `>&2` or `> /dev/null`. */
function redirectsIntoFile(code: string): boolean {
  for (const match of code.matchAll(/(?<![=\-<>])\d?>>?(?!&)\s*([^\s;&|)]*)/g)) {
    const target = match[1] ?? ''
    if (target !== '' && target !== '/dev/null' && !target.startsWith('&')) return true
  }
  return false
}

/** The command with every here-document body removed (`<<'EOF' ... EOF`): it is data, not code. */
function withoutHeredocBodies(command: string): string {
  const lines = command.split('\n')
  const kept: string[] = []
  let delimiter: string | undefined
  for (const line of lines) {
    if (delimiter !== undefined) {
      if (line.trim() === delimiter) delimiter = undefined
      continue
    }
    kept.push(line)
    const opener = /<<-?\s*['"]?([\w-]+)['"]?/.exec(line)
    if (opener) delimiter = opener[1]
  }
  return kept.join('\n')
}

/** The command with the text inside quotes blanked out, so `-m "a > b"` is not a redirect. */
function withoutQuotedText(command: string): string {
  let out = ''
  let quote: string | undefined
  for (const character of command) {
    if (quote !== undefined) {
      if (character === quote) {
        quote = undefined
        out += character
      }
      continue
    }
    if (character === '"' || character === "'") quote = character
    out += character
  }
  return out
}
