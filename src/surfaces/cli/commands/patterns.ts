/**
 * `somnus patterns`: pattern learning (seed 002, docs/design/origins.md): encode sessions,
 * consolidate into skills.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Command } from 'commander'
import { daysSince } from '../../../engine/core/dates.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { inertLogText } from '../../../engine/core/log-text.ts'
import { appendLogFile, createSomnusPatterns } from '../../../patterns/create-somnus-patterns.ts'
import type { PatternEntry } from '../../../patterns/index.ts'
import { type CliIo, printJson } from '../cli-io.ts'

/** Adds `patterns` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const say = (text: string) => io.stdout(`${text}\n`)
  const open = (options: { project?: string; model?: string }) =>
    createSomnusPatterns({
      cwd: options.project ? resolve(io.cwd, options.project) : io.cwd,
      env: io.env,
      ...(options.model ? { model: options.model } : {}),
    })

  const patterns = program
    .command('patterns')
    .description(
      'Learn patterns from sessions and crystallize recurring ones into skills (seed 002)',
    )
    .addHelpText(
      'after',
      `
Patterns live in user scope, ~/.claude/rem/patterns/<project-id>/<domain>.md (project id: 16 hex
of the SHA-256 of the git root), one entry per lesson with YAML frontmatter and Observation /
Details / Context. The hooks encode on PreCompact and SessionEnd, and on 10% of Stops; 5% of
Stops consolidate. Groups seen in 3+ sessions become .claude/skills/<domain>-<name>/SKILL.md
(or, for every-task rules, a marked section of CLAUDE.md) and a line in Claude Code's MEMORY.md.

Examples:
  somnus patterns encode ~/.claude/projects/-home-me-app/4d5611e5-….jsonl
  somnus patterns list
  somnus patterns show git
  somnus patterns consolidate --dry-run
  somnus patterns prune --days 30
  somnus patterns index`,
    )

  patterns
    .command('encode')
    .description("Encode one session's transcript into pattern entries")
    .argument('<transcript>', 'the session .jsonl (its <session>/subagents/ files are read too)')
    .option('--session <id>', 'the session id (default: the file name)')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option(
      '--model <spec>',
      'also ask this model for its own patterns (anthropic:<m>, openai:<m>, claude-cli; the offline extractive model adds none)',
    )
    .option('--dry-run', 'show what would be written, write nothing')
    .option('--hook-log <path>', 'append failures to this log and exit 0 (how the hooks run it)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Lessons come from the session's digest: gotchas as symptom, cause and the fix that made the
failing command pass afterwards (a change followed by the same failure is no fix); decisions the
session acted on, with their reason; the user's rules in their own words; the workflow repeated
per task. Each encode of a session replaces what earlier encodes of it wrote (+ added, = updated,
- removed). Entries are dated by the session (a session older than prune_days is pruned at the
next consolidation).

Examples:
  somnus patterns encode session.jsonl
  somnus patterns encode session.jsonl --dry-run --json`,
    )
    .action(async (transcript: string, options: EncodeOptions) => {
      await asHookJob(options.hookLog, 'patterns encode', async () => {
        const transcriptPath = resolve(io.cwd, transcript)
        // Run by a hook, the path is the hook input's: attacker text. It must be a transcript
        // where Claude Code keeps them, or inside the project (checked before anything is opened).
        if (options.hookLog)
          checkTranscriptFolder(transcriptPath, [
            claudeProjectsFolder(io.env),
            resolve(io.cwd, options.project ?? '.'),
          ])
        const somnus = await open(options)
        const result = await somnus.encode({
          transcriptPath,
          ...(options.session ? { sessionId: options.session } : {}),
          ...(options.dryRun ? { dryRun: true } : {}),
        })
        if (options.json) return printJson(io, result)
        say(
          `${options.dryRun ? 'Would encode' : 'Encoded'} session ${result.sessionId}: ${result.added.length} new, ${result.updated.length} updated, ${result.removed.length} removed, ${result.superseded.length} superseded (${somnus.workspace.patternsDir})`,
        )
        for (const entry of result.added) say(`  + ${entry.domain}: ${entry.title}`)
        for (const entry of result.updated) say(`  = ${entry.domain}: ${entry.title}`)
        for (const entry of result.removed)
          say(`  - ${entry.domain}: ${entry.title} (no longer found in the session)`)
        for (const link of result.superseded)
          say(`  ~ ${link.domain}: ${link.old} superseded by ${link.by}`)
        const days = somnus.workspace.settings.prune_days
        const age = daysSince(result.date, somnus.workspace.clock.now())
        if (age !== null && age > days && result.found > 0)
          say(
            `Note: the entries are dated ${result.date}, older than ${days} days: the next consolidation prunes them (raise "patterns": {"prune_days": N} in somnus.json to keep them).`,
          )
      })
    })

  patterns
    .command('list')
    .description('List pattern entries, newest first')
    .option('--domain <name>', 'only this domain')
    .option('--all', 'include superseded entries')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--json', 'print the entries as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus patterns list\n  somnus patterns list --domain git --json',
    )
    .action(
      async (options: { domain?: string; all?: boolean; project?: string; json?: boolean }) => {
        const entries = await (await open(options)).list({
          ...(options.domain ? { domain: options.domain } : {}),
          ...(options.all ? { all: true } : {}),
        })
        if (options.json) return printJson(io, entries)
        say(entries.length === 0 ? 'No patterns yet.' : entries.map(entryLine).join('\n'))
      },
    )

  patterns
    .command('show')
    .description('Print a domain file, or one entry by id')
    .argument('<domain-or-id>', 'a domain (git, elixir, ...) or an entry id')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--json', 'print {domain, entries} as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus patterns show git\n  somnus patterns show 2026-02-11-5f4b21d8',
    )
    .action(async (name: string, options: { project?: string; json?: boolean }) => {
      const somnus = await open(options)
      if (options.json) {
        const all = await somnus.list({ all: true })
        const entries = all.filter((entry) => entry.domain === name || entry.id === name)
        return printJson(io, { name, entries })
      }
      const text = await somnus.show(name)
      if (text === null) {
        throw new SomnusError(
          'NOT_FOUND',
          `No pattern domain or entry "${name}". Run \`somnus patterns list\` to see what there is.`,
        )
      }
      io.stdout(text)
    })

  patterns
    .command('consolidate')
    .description('Prune, group, and crystallize recurring patterns into skills or CLAUDE.md')
    .option('--dry-run', 'print what would be written, write nothing')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--model <spec>', 'the grouping model (default: the brain setting, else extractive)')
    .option('--hook-log <path>', 'append failures to this log and exit 0 (how the hooks run it)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus patterns consolidate --dry-run\n  somnus patterns consolidate --json',
    )
    .action(async (options: ConsolidateOptions) => {
      await asHookJob(options.hookLog, 'patterns consolidate', async () => {
        const result = await (await open(options)).consolidate(
          options.dryRun ? { dryRun: true } : {},
        )
        if (options.json) return printJson(io, result)
        const verb = options.dryRun ? 'Would write' : 'Wrote'
        if (result.bailOut) say(`Nothing to crystallize: ${result.bailOut}.`)
        if (result.pruned.length > 0)
          say(`Pruned ${result.pruned.length} entries older than the prune age.`)
        for (const skill of result.skills)
          say(`${verb} skill ${skill.path} (${skill.citations.length} citations)`)
        for (const rule of result.claudeMdRules)
          say(`${verb} CLAUDE.md rule ${rule.replace(/ <!--.*$/, '')}`)
        if (result.memory)
          say(
            `MEMORY.md (${result.memory.path}): +${result.memory.added.length} -${result.memory.removed.length}${result.memory.skipped.length ? `, ${result.memory.skipped.length} skipped (limit)` : ''}`,
          )
        if (options.dryRun) for (const file of result.files) say(`\n--- ${file.path}\n${file.text}`)
        if (!result.bailOut && result.skills.length === 0 && result.claudeMdRules.length === 0)
          say('No group reached the occurrence threshold.')
      })
    })

  patterns
    .command('prune')
    .description('Drop pattern entries older than the prune age (default 30 days)')
    .option('--days <n>', 'the age in days', (value) => Number.parseInt(value, 10))
    .option('--dry-run', 'list what would go, change nothing')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus patterns prune\n  somnus patterns prune --days 14 --dry-run',
    )
    .action(
      async (options: { days?: number; dryRun?: boolean; project?: string; json?: boolean }) => {
        const result = await (await open(options)).prune({
          ...(options.days !== undefined && Number.isFinite(options.days)
            ? { days: options.days }
            : {}),
          ...(options.dryRun ? { dryRun: true } : {}),
        })
        if (options.json) return printJson(io, result)
        say(`${options.dryRun ? 'Would prune' : 'Pruned'} ${result.pruned.length} entries.`)
      },
    )

  patterns
    .command('index')
    .description('Print the recent-pattern index that SessionStart shows')
    .option('--project <dir>', 'the project folder (default: the current folder)')
    .option('--json', 'print {text} as JSON')
    .addHelpText('after', '\nExample:\n  somnus patterns index')
    .action(async (options: { project?: string; json?: boolean }) => {
      const text = await (await open(options)).index()
      if (options.json) return printJson(io, { text })
      say(text === '' ? 'No patterns yet.' : text)
    })
}

interface EncodeOptions {
  session?: string
  project?: string
  model?: string
  dryRun?: boolean
  hookLog?: string
  json?: boolean
}

interface ConsolidateOptions {
  dryRun?: boolean
  project?: string
  model?: string
  hookLog?: string
  json?: boolean
}

function entryLine(entry: PatternEntry): string {
  const mark = entry.status === 'superseded' ? ` (superseded by ${entry.supersededBy ?? '?'})` : ''
  return `${entry.date} ${entry.domain.padEnd(10)} ${entry.id}  ${entry.title}${mark}`
}

/** Claude Code's projects folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
function claudeProjectsFolder(env: Record<string, string | undefined>): string {
  const home = env.HOME || process.getBuiltinModule('node:os').homedir()
  return join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects')
}

/**
 * Throws TRANSCRIPT_UNREADABLE unless `path`, its links followed, is a `.jsonl` file inside one of
 * `folders` (their links followed too). A missing file passes: reading it then says so.
 */
function checkTranscriptFolder(path: string, folders: string[]): void {
  const { realpathSync } = process.getBuiltinModule('node:fs')
  const real = (candidate: string) => {
    try {
      return realpathSync(candidate)
    } catch {
      return null
    }
  }
  const target = real(path)
  if (target === null) return
  const inside = folders
    .map(real)
    .some(
      (folder) =>
        folder !== null &&
        relative(folder, target).split(sep)[0] !== '..' &&
        !isAbsolute(relative(folder, target)),
    )
  if (!inside || !target.endsWith('.jsonl'))
    throw new SomnusError(
      'TRANSCRIPT_UNREADABLE',
      `Refusing the transcript ${path}${target === path ? '' : ` (${target})`}: a hook may only name a .jsonl file under ${folders.join(' or ')}. Run \`somnus patterns encode <file>\` yourself to encode a file elsewhere.`,
    )
}

/**
 * Runs `work`; with a hook log (the detached run a hook started), a failure becomes one log line
 * and the process still exits 0, as a hook would (principle 5, docs/design/principles.md).
 */
async function asHookJob(
  log: string | undefined,
  what: string,
  work: () => Promise<void>,
): Promise<void> {
  if (!log) return work()
  try {
    await work()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    try {
      // The hook's log, `<brain>/state/.somnus-hook.log`: written as the hook writes it.
      appendLogFile({
        path: log,
        text: `${new Date().toISOString()} ${what} failed: ${inertLogText(message.replace(/\s+/g, ' '))}\n`,
        within: dirname(dirname(log)),
        rotateBytes: 1024 * 1024,
      })
    } catch {
      // Nowhere to write: the detached run has no one else to tell.
    }
  }
}
