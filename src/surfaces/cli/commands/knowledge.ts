/** `somnus knowledge`: notes in `_agent_context/knowledge/`, with read tracking for staleness. */
import type { Command } from 'commander'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { splitList } from './tasks.ts'

/** Adds `knowledge` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const open = () => openSomnus(io)
  const knowledge = program
    .command('knowledge')
    .description('Create, touch and list knowledge notes (_agent_context/knowledge/*.md)')

  knowledge
    .command('create')
    .description('Create knowledge/<slug>.md; the body comes from --body or standard input')
    .argument('<slug>', 'the note name: lowercase letters, digits and hyphens')
    .option('--title <text>', 'a human title (default: the slug)')
    .option('--summary <text>', 'one line for the knowledge index (default: the first paragraph)')
    .option(
      '--tags <a,b>',
      'comma-separated tags; a tag shared with an active task makes the note warm',
    )
    .option('--pinned', 'load the whole note at every session start')
    .option('--body <text>', 'the note text (otherwise read from standard input when piped)')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus knowledge create jwt-auth --title "JWT auth flow" --tags auth < notes.md\n  somnus knowledge create deploy --pinned --body "Deploy with make ship; never on Fridays."',
    )
    .action(
      async (
        slug: string,
        options: {
          title?: string
          summary?: string
          tags?: string
          pinned?: boolean
          body?: string
        },
      ) => {
        const body = options.body ?? (await io.readStdin())
        const path = await (await open()).createKnowledge({
          slug,
          title: options.title ?? null,
          summary: options.summary ?? null,
          tags: splitList(options.tags),
          pinned: options.pinned === true,
          body,
        })
        io.stdout(`Created ${path}\n`)
      },
    )

  knowledge
    .command('touch')
    .description('Record that you read a note (keeps it fresh and warm)')
    .argument('<slug>', 'the note')
    .action(async (slug: string) => {
      const access = await (await open()).touchKnowledgeNote(slug)
      io.stdout(`Touched ${slug}: read ${access.count} times, last ${access.last_accessed}.\n`)
    })

  knowledge
    .command('list')
    .description('Every note with tags, pin, last read, read count and staleness (30+ days unread)')
    .option('--json', 'print the notes as JSON')
    .action(async (options: { json?: boolean }) => {
      const notes = await (await open()).listKnowledge()
      if (options.json) {
        printJson(io, notes)
        return
      }
      if (notes.length === 0) {
        io.stdout('No knowledge notes yet: `somnus knowledge create <slug>`.\n')
        return
      }
      const lines = notes.map((note) => {
        const title = note.title !== note.slug ? ` ${note.title}` : ''
        const tags = note.tags.length > 0 ? ` [${note.tags.join(', ')}]` : ''
        const pinned = note.pinned ? ' (pinned)' : ''
        const reads = note.last_accessed
          ? `read ${note.count}x, last ${note.last_accessed}`
          : 'never read'
        return `- ${note.slug}${title}${tags}${pinned}: ${reads}${note.stale ? ' (stale)' : ''}`
      })
      io.stdout(`${lines.join('\n')}\n`)
    })
}
