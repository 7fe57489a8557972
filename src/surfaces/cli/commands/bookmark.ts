/** `somnus bookmark`: tag moments during work for the next sleep ("awake ripples"). */
import type { Command } from 'commander'
import { parseSalience } from '../../../brain/brain-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'
import { bookmarkLine, stars } from './ledger-text.ts'

/** Adds `bookmark` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  const open = () => openSomnus(io)
  const say = (text: string) => io.stdout(`${text}\n`)

  const bookmark = program
    .command('bookmark')
    .description('Tag important moments so the next sleep consolidates them first')
    .addHelpText(
      'after',
      `
Salience: 1 (*) notable, 2 (**) should consolidate, 3 (***) must consolidate. A *** bookmark
makes the next session start with a consolidation advisory, whatever the debt.

Examples:
  somnus bookmark add "Chose SQLite over Postgres for the local cache"
  somnus bookmark add -s 3 -t auth "Tokens must never be stored in localStorage"
  somnus bookmark list`,
    )

  bookmark
    .command('add')
    .description('Bookmark a decision, constraint or lesson')
    .argument('<message...>', 'what to remember')
    .option('-s, --salience <1|2|3>', 'importance: 1 notable, 2 should, 3 must consolidate', '2')
    .option('-t, --task <slug>', 'the task this belongs to')
    .addHelpText(
      'after',
      '\nExample:\n  somnus bookmark add -s 3 "API v1 stays frozen until the mobile app migrates"',
    )
    .action(async (words: string[], options: { salience: string; task?: string }) => {
      const salience = parseSalience(options.salience)
      const added = await (await open()).addBookmark({
        message: words.join(' '),
        salience,
        taskSlug: options.task ?? null,
      })
      say(`Bookmarked ${stars(added.salience)} ${added.id}: ${added.message}`)
    })

  bookmark
    .command('list')
    .description('List pending bookmarks, most important first')
    .option('--json', 'print the bookmarks as JSON')
    .addHelpText('after', '\nExamples:\n  somnus bookmark list\n  somnus bookmark list --json')
    .action(async (options: { json?: boolean }) => {
      const bookmarks = await (await open()).listBookmarks()
      if (options.json) printJson(io, bookmarks)
      else say(bookmarks.length === 0 ? 'No bookmarks.' : bookmarks.map(bookmarkLine).join('\n'))
    })

  bookmark
    .command('clear')
    .description('Remove every bookmark (normally `sleep done` clears them)')
    .addHelpText('after', '\nExample:\n  somnus bookmark clear')
    .action(async () => {
      const count = await (await open()).clearBookmarks()
      say(`Cleared ${count} bookmark${count === 1 ? '' : 's'}.`)
    })
}
