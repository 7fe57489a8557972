/** `somnus sleep run`: consolidate now, offline by default, or show the plan with --dry-run. */
import type { Command } from 'commander'
import { plural, type SleepRunPlan } from '../../../brain/brain-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'
import { openSomnus } from '../open-somnus.ts'

/** Adds `run` to the `sleep` command. */
export function registerSleepRun(sleep: Command, io: CliIo): void {
  sleep
    .command('run')
    .description(
      'Consolidate now: bookmarks first, then one digest per session (kept in knowledge/sessions/), routed into memory, user preferences, changelog, triggers and feature PRDs; archive overflow; reset the debt',
    )
    .option('--dry-run', 'show the planned changes as a diff and change nothing')
    .option(
      '--model <spec>',
      'extractive (default, offline), anthropic:<model>, openai:<model> or claude-cli',
    )
    .option(
      '--no-transcripts',
      'use only closing messages and bookmarks: no transcripts, no digests',
    )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Each session since the last sleep becomes a digest of its transcript (compaction summaries,
wrap-up, commits, files changed, error -> fix pairs, task state, decisions, the user's words),
kept whole in _agent_context/knowledge/sessions/<date>-<session8>.md. The core files get what
belongs there: open problems -> Known Issues, the user's preferences -> 1.user.md, decisions and
gotchas -> 2.memory.md, what changed -> CHANGELOG.json and, for work that belongs to an existing
feature PRD (its related_tasks, id, a task pointing at it, or a file it names), that PRD's
Changelog. Finished work is never filed as open, and an open item a session finished is moved to
the archive as resolved. With --model, the model
writes the digests from the same material, citing the same transcript records.
Every line it adds cites its sources (bookmark ids, session ids, transcript record ids) and the
model. A second run right after changes nothing. If it is interrupted, the next somnus command
finishes it: the brain is either as before or as after, never half-written. It clears exactly the
sessions and bookmarks it read; whatever hooks record while it runs waits for the next sleep.
Sessions whose transcripts are missing, not readable yet or damaged are left for the next
sleep (their closing messages stay in the ledger), and the run says why. Only one run at a
time: a second one exits 1 (SLEEP_RUNNING).

Examples:
  somnus sleep run --dry-run            preview the consolidation as a diff
  somnus sleep run                      consolidate offline and reset the debt
  somnus sleep run --model anthropic:claude-sonnet-4-5 --json`,
    )
    .action(
      async (options: {
        dryRun?: boolean
        model?: string
        transcripts: boolean
        json?: boolean
      }) => {
        const somnus = await openSomnus(io)
        const result = await somnus.runSleep({
          ...(options.model === undefined ? {} : { model: options.model }),
          dryRun: options.dryRun === true,
          transcripts: options.transcripts,
          onProgress: (message) => io.stderr(`somnus: ${message}\n`),
          signal: io.interruptSignal?.(),
        })
        if (options.json) {
          printJson(io, {
            applied: result.applied,
            dry_run: options.dryRun === true,
            recovered: result.recovered,
            summary: result.plan.empty ? null : result.plan.summary,
            model: result.model,
            usage: result.usage,
            counts: result.plan.counts,
            files: result.plan.files.map((file) => ({
              path: file.path,
              created: file.before === null,
            })),
            triggers: result.plan.triggers,
            session_ids: result.plan.sessionIds,
            bookmark_ids: result.plan.bookmarkIds,
            pending_session_ids: result.pending,
            conflicts: result.conflicts,
          })
          return
        }
        if (result.plan.empty) {
          io.stdout('Nothing to consolidate: no sessions or bookmarks since the last sleep.\n')
          return
        }
        if (options.dryRun) io.stdout(await renderDiff(result.plan))
        io.stdout(`${options.dryRun ? 'Would run' : 'Done'}: ${result.plan.summary}\n`)
      },
    )
}

/** The plan as a diff; `diff` loads here, not with every `sleep` command (~15 ms of start-up). */
async function renderDiff(plan: SleepRunPlan): Promise<string> {
  const { createTwoFilesPatch } = await import('diff')
  const patches = plan.files.map((file) =>
    createTwoFilesPatch(
      file.before === null ? '/dev/null' : `a/${file.path}`,
      `b/${file.path}`,
      file.before ?? '',
      file.after,
      undefined,
      undefined,
      { context: 2 },
    ).replace(/^(Index: .*\n)?=+\n/, ''),
  )
  const triggers = plan.triggers.map(
    (trigger) => `+ trigger when "${trigger.when}": ${trigger.remind}\n`,
  )
  const ledger = `~ ledger: ${plural(plan.sessionIds.length, 'session')} and ${plural(plan.bookmarkIds.length, 'bookmark')} cleared, debt reset, history entry added\n`
  return `${patches.join('')}${triggers.join('')}${ledger}`
}
