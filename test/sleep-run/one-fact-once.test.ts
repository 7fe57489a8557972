/**
 * Issue 18 (low): one `sleep run` wrote one fact 2-4 times when several sessions stated it. Three
 * real-format sessions say the same preference in slightly different words; after their Stop
 * hooks and one `sleep run` of the built CLI, core/1.user.md holds it on exactly one line, citing
 * every session; a second run with a fourth session saying it again adds no line.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, SOMNUS_BIN } from '../support/build-once.ts'
import { createHookWorkspace, type HookWorkspace, stopPayload } from '../support/hook-workspace.ts'
import { assistant, setTranscriptClock, text, user } from '../support/transcript-lines.ts'

function somnus(ws: HookWorkspace, args: string[], stdin = '') {
  const run = spawnSync(process.execPath, [SOMNUS_BIN, ...args], {
    cwd: ws.project,
    env: { PATH: process.env.PATH, HOME: ws.home },
    input: stdin,
    encoding: 'utf8',
  })
  expect({ args, code: run.status, stderr: run.stderr }).toMatchObject({ args, code: 0 })
  return run.stdout
}

/** A session in which the user states `preference` among other work; its Stop hook run. */
function session(
  ws: HookWorkspace,
  id: string,
  at: string,
  preference: string,
  task: string,
  also = 'Thanks.',
) {
  setTranscriptClock(at)
  const lines = [
    user(task, { uuid: `${id}-u1` }),
    assistant(`${id}-m1`, [text(`Done: ${task.toLowerCase()}`)], {}, { uuid: `${id}-a1` }),
    user(preference, { uuid: `${id}-u2` }),
    assistant(`${id}-m2`, [text('Noted.')], {}, { uuid: `${id}-a2` }),
    user(also, { uuid: `${id}-u3` }),
    assistant(`${id}-m3`, [text('Will do.')], {}, { uuid: `${id}-a3` }),
  ]
  const transcript = join(ws.transcripts, `${id}.jsonl`)
  writeFileSync(transcript, `${lines.join('\n')}\n`)
  somnus(ws, ['hook', 'stop'], JSON.stringify(stopPayload(ws, id, transcript)))
}

describe('one fact, one line per sleep run', () => {
  let ws: HookWorkspace
  beforeAll(ensureBuilt, 120_000)
  afterEach(() => ws?.dispose())

  it('three sessions stating the same preference in other words leave exactly one line', () => {
    ws = createHookWorkspace()
    session(
      ws,
      'aaaa1111',
      '2026-02-20T10:00:00.000Z',
      'I always prefer pnpm over npm for installing packages.',
      'Add the CSV export.',
    )
    session(
      ws,
      'bbbb2222',
      '2026-02-20T11:00:00.000Z',
      'Always prefer pnpm over npm when installing packages, please.',
      'Fix the login redirect.',
    )
    session(
      ws,
      'cccc3333',
      '2026-02-20T12:00:00.000Z',
      'Remember: I prefer pnpm to npm for package installs.',
      'Rename the billing module.',
    )
    somnus(ws, ['sleep', 'run'])
    const said = (file: string) =>
      file.split('\n').filter((line) => /^- In the user's words: .*pnpm/.test(line))
    const once = readFileSync(join(ws.root, 'core/1.user.md'), 'utf8')
    expect(said(once)).toHaveLength(1)
    for (const id of ['aaaa1111', 'bbbb2222', 'cccc3333']) expect(said(once)[0]).toContain(id)
    // The style line quotes the prompts as examples: one line for the style too.
    expect(once.split('\n').filter((line) => line.startsWith('- Brief prompts'))).toHaveLength(1)

    // A later run: a fourth session says it again (one line still) and says something new.
    session(
      ws,
      'dddd4444',
      '2026-02-21T10:00:00.000Z',
      'I prefer pnpm over npm for installing packages, always.',
      'Bump the API client.',
      'Please never squash commits when merging a branch.',
    )
    somnus(ws, ['sleep', 'run'])
    const twice = readFileSync(join(ws.root, 'core/1.user.md'), 'utf8')
    expect(said(twice)).toHaveLength(1)
    expect(said(twice)[0]).toContain('dddd4444')
    expect(twice).toContain('never squash commits')
  }, 60_000)
})
