/**
 * `somnus mind`: a creature's sleep cycle (seed 004, docs/design/origins.md) for agents in any
 * language — log messages and actions, sleep, wake, and read back observations, dreams and total
 * recall. Every verb takes `--json`; `--dir` (or SOMNUS_MIND_DIR) names the creature folder,
 * `.self` by default.
 */
import { resolve } from 'node:path'
import type { Command } from 'commander'
import { SomnusError } from '../../../engine/core/errors.ts'
import { plainText } from '../../../mind/mind-values.ts'
import { type CliIo, printJson } from '../cli-io.ts'

/** The verbs' shared options. */
interface MindOptions {
  dir?: string
  model?: string
  json?: boolean
}

/** Adds `mind` and its verbs to the program. */
export function register(program: Command, io: CliIo): void {
  // What a creature stored is outside text: shown with its control characters made visible.
  const say = (text: string) => {
    const shown = plainText(text)
    io.stdout(shown.endsWith('\n') ? shown : `${shown}\n`)
  }
  const open = async (options: MindOptions) => {
    const { openMindFolder } = await import('../../../mind/create-mind.ts')
    const given = options.dir ?? io.env.SOMNUS_MIND_DIR ?? '.self'
    return openMindFolder({
      folder: resolve(io.cwd, given),
      location: given,
      model: options.model ?? io.env.SOMNUS_MIND_MODEL,
      env: io.env,
    })
  }
  const optionsOf = (command: Command) => command.optsWithGlobals() as MindOptions

  const mind = program
    .command('mind')
    .description(
      'A creature sleep cycle: fatigue, voluntary sleep, dreams, observations, deep sleep, wake-up',
    )
    .option('-d, --dir <folder>', 'the creature folder (default .self, or SOMNUS_MIND_DIR)')
    .option(
      '-m, --model <spec>',
      'the consolidating mind: extractive (default, offline), anthropic:<model> or openai:<model>',
    )
    .addHelpText(
      'after',
      `
Seed 004's rules (change any in <folder>/mind.json, e.g. {"fatigueLimit": 100}):
  every action counts; a warning at 60 actions, forced consolidation and a 300 s sleep at 80;
  a sleep of 30 s or more, at least 10 min after the last dream, consolidates; shorter or more
  frequent sleeps only pause; every 10th dream is a deep sleep (prune, priorities, diary).

Files in the folder: conversation.jsonl and dreams.jsonl (total recall, never deleted),
observations.md, observations-archive.md, priorities.md, diary.md, mind-state.json.

Examples (a bash-driven agent loop):
  somnus mind record user "Please fix the flaky login test"
  somnus mind action bash "npm test -> 2 failed (login.spec.ts)" --json
  somnus mind sleep 300 --json && sleep 300 && somnus mind wake
  somnus mind recall "login test"`,
    )

  mind
    .command('record')
    .description('Log a message (user, assistant or system) to conversation.jsonl')
    .argument('<role>', 'user, assistant or system')
    .argument('[content...]', 'the message; none or - reads stdin')
    .option('-n, --name <speaker>', "the speaker's name")
    .option('--json', 'print the line as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus mind record user "Deploy by Friday"\n  echo "Plan: fix auth first" | somnus mind record assistant -',
    )
    .action(async (role: string, words: string[], options: { name?: string }, command: Command) => {
      const content =
        words.length === 0 || (words.length === 1 && words[0] === '-')
          ? (await io.readStdin()).trim()
          : words.join(' ')
      if (content === '')
        throw new SomnusError(
          'USAGE',
          'Nothing to record: give the message as arguments or on stdin.',
        )
      const opts = optionsOf(command)
      const result = await (await open(opts)).record({
        role: role as 'user',
        content,
        name: options.name,
      })
      if (opts.json) printJson(io, result)
      else say(`Recorded line ${result.line}.`)
    })

  mind
    .command('action')
    .description(
      'Log and count one action (a tool call); warns at 60, forces sleep at 80 (defaults)',
    )
    .argument('<tool>', 'the tool used, e.g. bash')
    .argument('[content...]', 'the call and a short result; none or - reads stdin')
    .option('--json', 'print actions, warning and any forced sleep as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus mind action bash "git push -> rejected (non-fast-forward)"\n  somnus mind action browser "opened github.com/org/repo/pull/50" --json',
    )
    .action(async (tool: string, words: string[], _options: unknown, command: Command) => {
      const content =
        words.length === 0 || (words.length === 1 && words[0] === '-')
          ? (await io.readStdin()).trim()
          : words.join(' ')
      const opts = optionsOf(command)
      const creature = await open(opts)
      const result = await creature.action({ tool, content })
      if (opts.json) return printJson(io, result)
      say(`Action ${result.actions}/${creature.config.fatigueLimit}.`)
      if (result.asleep) say(result.asleep)
      if (result.warning) say(result.warning)
      if (result.forcedSleep) {
        const { sleepText } = await import('../../../mind/create-mind.ts')
        say(`Exhausted: ${sleepText(result.forcedSleep)}\nWake with: somnus mind wake`)
      }
    })

  mind
    .command('sleep')
    .description('Go to sleep (set_sleep); consolidates when the rules allow')
    .argument('<seconds>', 'how long to sleep')
    .option('--json', 'print the decision, the dream and the wake time as JSON')
    .addHelpText(
      'after',
      '\nThe command returns at once; the caller waits, then runs `somnus mind wake`.\n\nExamples:\n  somnus mind sleep 300\n  somnus mind sleep 20 --json   # a nap: only a pause',
    )
    .action(async (seconds: string, _options: unknown, command: Command) => {
      const value = Number(seconds)
      if (!Number.isFinite(value))
        throw new SomnusError('USAGE', `Seconds must be a number (got "${seconds}").`)
      const opts = optionsOf(command)
      const creature = await open(opts)
      const result = await creature.sleep({ seconds: value })
      if (opts.json) return printJson(io, result)
      const { sleepText } = await import('../../../mind/create-mind.ts')
      say(sleepText(result))
      if (result.dream)
        say(`\nReflection: ${result.dream.reflection}\nPriority: ${result.dream.priority}`)
    })

  mind
    .command('wake')
    .description('Wake up: print the wake message (reflection, priority, recent observations)')
    .option('--json', 'print the message, seconds slept and cycle as JSON')
    .addHelpText(
      'after',
      '\nAfter a restart (not asleep) it prints the same context, rebuilt from disk.\n\nExample:\n  somnus mind wake',
    )
    .action(async (_options: unknown, command: Command) => {
      const opts = optionsOf(command)
      const result = await (await open(opts)).wake()
      if (opts.json) printJson(io, result)
      else say(result.message)
    })

  mind
    .command('status')
    .description('Fatigue, dreams, the next deep sleep, whether asleep')
    .option('--json', 'print the status as JSON')
    .addHelpText('after', '\nExamples:\n  somnus mind status\n  somnus mind status --json')
    .action(async (_options: unknown, command: Command) => {
      const opts = optionsOf(command)
      const creature = await open(opts)
      const status = await creature.status()
      if (opts.json) return printJson(io, status)
      say(
        [
          `Creature ${status.location}, cycle ${status.cycle}: ${status.fatigue} (${status.actions} actions; warning at ${status.warning_at}, sleep forced at ${status.limit}), ${status.messages} messages since the last dream.`,
          `Dreams: ${status.dreams}${status.last_dream_at ? `, last at ${status.last_dream_at}` : ''}; deep sleep in ${status.deep_sleep_in} dream(s).`,
          status.can_dream_at
            ? `A voluntary sleep consolidates again from ${status.can_dream_at}.`
            : `A sleep of ${creature.config.quickNapSeconds} s or more would consolidate now.`,
          status.sleeping
            ? `Asleep since ${status.sleeping.since} until ${status.sleeping.wakeAt} (${status.sleeping.reason}).`
            : 'Awake.',
          ...(status.consolidating_since
            ? [`A consolidation has been running since ${status.consolidating_since}.`]
            : []),
        ].join('\n'),
      )
    })

  mind
    .command('observations')
    .description(
      "Print observations.md (RED/YLW/GRN lines by date); --json adds each line's sources",
    )
    .option('-p, --priority <level>', 'only RED, YLW or GRN')
    .option('--json', 'print the observations with date, dream and conversation.jsonl sources')
    .addHelpText(
      'after',
      '\nExamples:\n  somnus mind observations\n  somnus mind observations -p RED --json',
    )
    .action(async (options: { priority?: string }, command: Command) => {
      const priority = options.priority?.toUpperCase()
      if (priority !== undefined && !['RED', 'YLW', 'GRN'].includes(priority)) {
        throw new SomnusError(
          'USAGE',
          `Priority must be RED, YLW or GRN (got "${options.priority}").`,
        )
      }
      const opts = optionsOf(command)
      const listed = await (await open(opts)).observations({
        priority: priority as 'RED' | undefined,
      })
      if (opts.json) return printJson(io, listed.observations)
      if (priority)
        say(
          listed.observations
            .map((item) => `${item.date} ${item.priority} ${item.time} ${item.text}`)
            .join('\n') || 'None.',
        )
      else
        say(
          listed.text.trim() === ''
            ? 'No observations yet: they are written when the creature dreams.'
            : listed.text,
        )
    })

  mind
    .command('dreams')
    .description('The last dreams from dreams.jsonl')
    .option('-n, --limit <n>', 'how many', '10')
    .option('--json', 'print the dream entries as JSON')
    .addHelpText('after', '\nExamples:\n  somnus mind dreams\n  somnus mind dreams -n 3 --json')
    .action(async (options: { limit: string }, command: Command) => {
      const opts = optionsOf(command)
      const dreams = await (await open(opts)).dreams(positive(options.limit))
      if (opts.json) return printJson(io, dreams)
      say(
        dreams.length === 0
          ? 'No dreams yet.'
          : dreams
              .map(
                (dream) =>
                  `${dream.t} ${dream.kind}${dream.deep ? ' deep' : ''}, ${dream.actions} actions, ${dream.observations} observations\n  ${dream.reflection.replace(/\s+/g, ' ').slice(0, 300)}\n  Priority: ${dream.priority}`,
              )
              .join('\n'),
      )
    })

  mind
    .command('recall')
    .description('Search total recall (conversation, dreams, observations, archive, diary), ranked')
    .argument('<query...>', 'what to look for')
    .option('-n, --limit <n>', 'how many hits', '10')
    .option('--json', 'print the hits (file, line, score, text) as JSON')
    .addHelpText(
      'after',
      '\nEach hit is file:line, so `sed -n <line>p .self/<file>` shows it whole.\n\nExamples:\n  somnus mind recall PR 50 merged\n  somnus mind recall "deadline" --json',
    )
    .action(async (words: string[], options: { limit: string }, command: Command) => {
      const opts = optionsOf(command)
      // Only the search: the creature's model and token counter are not loaded for a question.
      const { createMindRecall } = await import('../../../mind/create-mind-recall.ts')
      const given = opts.dir ?? io.env.SOMNUS_MIND_DIR ?? '.self'
      const hits = await createMindRecall({
        folder: resolve(io.cwd, given),
        location: given,
        // A first build of a large creature's index: a 200 MB bound (bench/README.md, recall).
        boundHeap: true,
      }).recall(words.join(' '), positive(options.limit))
      if (opts.json) return printJson(io, hits)
      say(
        hits.length === 0
          ? 'No matches.'
          : hits.map((hit) => `${hit.file}:${hit.line}  ${hit.text}`).join('\n'),
      )
    })

  mind
    .command('context')
    .description('The in-context window rebuilt from disk: wake message, digest, recent messages')
    .option('--json', 'print it as JSON')
    .addHelpText('after', '\nExample:\n  somnus mind context --json')
    .action(async (_options: unknown, command: Command) => {
      const opts = optionsOf(command)
      const context = await (await open(opts)).context()
      if (opts.json) return printJson(io, context)
      const parts = [
        context.wake,
        context.digest,
        ...context.messages.map(
          ({ entry }) => `[${entry.name ?? entry.tool ?? entry.role}] ${entry.content}`,
        ),
      ]
      say(
        parts.filter((part): part is string => Boolean(part)).join('\n\n') ||
          'Nothing in context yet.',
      )
    })
}

function positive(text: string): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1)
    throw new SomnusError('USAGE', `Expected a whole number of at least 1 (got "${text}").`)
  return value
}
