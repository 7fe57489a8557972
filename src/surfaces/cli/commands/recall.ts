/** `somnus recall <query...>`: what the brain, its digests, patterns and transcripts know about it. */
import type { Command } from 'commander'
import type { MemoryHit } from '../../../brain/create-somnus.ts'
import { SomnusError } from '../../../engine/core/errors.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** The kinds `--in` takes, with what each covers (the help lists them). */
export const RECALL_KIND_HELP: Record<string, string> = {
  core: 'core files, feature PRDs, tasks, the changelog',
  sessions: 'session digests (knowledge/sessions/)',
  knowledge: 'knowledge notes and the archives',
  patterns: "the project's learned patterns",
  transcripts: "the project's Claude Code transcripts still on disk (user and assistant text)",
}

/** Characters of each hit shown unless --chars says otherwise. */
const DEFAULT_CHARS = 500

/** Adds `recall` to the program. */
export function register(program: Command, io: CliIo): void {
  program
    .command('recall')
    .description('Search everything Somnus keeps for this project; hits name their file:line')
    .argument('<query...>', 'what to look for, in plain words or code names')
    .option('-n, --limit <n>', 'how many hits (1-100)', '5')
    .option(
      '--in <kinds>',
      `only these kinds, comma-separated: ${Object.keys(RECALL_KIND_HELP).join(', ')}`,
    )
    .option('--since <date>', 'only memory dated on or after this day (YYYY-MM-DD or an ISO time)')
    .option('--chars <n>', 'the most characters shown of each hit', String(DEFAULT_CHARS))
    .option(
      '--json',
      'print the hits as JSON (id, kind, location, also, snippet, date, sources, score)',
    )
    .addHelpText(
      'after',
      `
Kinds:
${Object.entries(RECALL_KIND_HELP)
  .map(([kind, what]) => `  ${kind.padEnd(12)} ${what}`)
  .join('\n')}

Each hit shows where it is (file:line, or transcript#message id), its date and its sources (the
sessions and messages it came from). A hit is checked against its file before it is shown: a line
that moved is shown where it is now, one that is gone is not shown. The index lives in
_agent_context/state/.recall-*.json (ignored by git); it is updated here and at every sleep run,
only for files that changed.

Examples:
  somnus recall why did the migration fail on sqlite
  somnus recall load_session_messages --in core,sessions
  somnus recall "review token" --since 2026-02-01 -n 10 --json`,
    )
    .action(
      async (
        words: string[],
        options: { limit: string; in?: string; since?: string; chars: string; json?: boolean },
      ) => {
        const query = words.join(' ').trim()
        if (query === '') throw usage('Give words to look for: somnus recall <query...>.')
        const limit = wholeNumber(options.limit, '--limit', 1, 100)
        const chars = wholeNumber(options.chars, '--chars', 40, 20_000)
        const kinds = kindsOf(options.in)
        const since = options.since === undefined ? undefined : dateOf(options.since)
        const somnus = await openSomnus(io)
        const recall = await somnus.recall()
        const hits = await recall.recall({
          text: query,
          limit,
          snippetChars: chars,
          ...(kinds ? { in: kinds } : {}),
          ...(since ? { since } : {}),
        })
        if (options.json) {
          printJson(io, hits.map(jsonHit))
          return
        }
        if (hits.length === 0) {
          io.stdout(`Nothing found for "${query}".\n`)
          return
        }
        io.stdout(`${hits.map(render).join('\n\n')}\n`)
      },
    )
}

/** A hit for scripts: everything but the full text (the snippet is what is shown). */
function jsonHit(hit: MemoryHit) {
  return {
    id: hit.id,
    kind: hit.kind,
    location: hit.location,
    also: hit.also,
    snippet: hit.snippet,
    date: hit.date,
    sources: hit.sources,
    score: Number(hit.score.toFixed(4)),
  }
}

function render(hit: MemoryHit, index: number): string {
  const date = hit.date ? `, ${hit.date.slice(0, 10)}` : ''
  const lines = [`${index + 1}. ${hit.location} (${hit.kind}${date})`, `   ${hit.snippet}`]
  if (hit.also.length > 0) lines.push(`   also: ${hit.also.join(', ')}`)
  if (hit.sources.length > 0) lines.push(`   sources: ${hit.sources.slice(0, 8).join(', ')}`)
  return lines.join('\n')
}

function usage(message: string): SomnusError {
  return new SomnusError('USAGE', message)
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < min || value > max)
    throw usage(`${flag} takes a whole number from ${min} to ${max}, not "${text}".`)
  return value
}

function kindsOf(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined
  const kinds = text
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean)
  const unknown = kinds.filter((kind) => !(kind in RECALL_KIND_HELP))
  if (kinds.length === 0 || unknown.length > 0)
    throw usage(
      `--in takes kinds from ${Object.keys(RECALL_KIND_HELP).join(', ')} (comma-separated), not "${text}".`,
    )
  return kinds
}

/** `--since` as given when it is an ISO day or time that exists, else a usage error. */
export function dateOf(text: string): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text)
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(text)
  const parsed = Date.parse(day ? `${text}T00:00:00Z` : text)
  if (
    (!day && !time) ||
    Number.isNaN(parsed) ||
    (day && new Date(parsed).toISOString().slice(0, 10) !== text)
  )
    throw usage(
      `--since takes a day (2026-03-01) or an ISO time (2026-03-01T12:00:00Z), not "${text}".`,
    )
  return day ? text : new Date(parsed).toISOString()
}
