/**
 * What a creature stores and shows, on real folders: secrets in every field (speaker name, tool,
 * content) redacted in conversation.jsonl, dreams.jsonl and observations.md; control bytes made
 * visible in files and on the terminal; observations filed under the day of their event and
 * expiring from it; a deep sleep cut short after its prune still tells the truth in the diary;
 * an action while asleep says so; the status text uses the configured numbers.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFsMindStore } from '../src/mind/adapters/fs/fs-mind-store.ts'
import { createMind } from '../src/mind/create-mind.ts'
import type { MindStore } from '../src/mind/ports/mind-store.ts'
import { runCliCaptured } from './support/run-cli-captured.ts'

const KEY = `sk-ant-api03-${'Zq7xW2'.repeat(12)}AA`
// biome-ignore lint/suspicious/noControlCharactersInRegex: the bytes the test looks for
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/

function creatureFolder(): string {
  return join(mkdtempSync(join(tmpdir(), 'somnus-mind-safety-')), '.self')
}

describe('a creature’s stored and shown text', () => {
  it('redacts name, tool and content, and neutralizes control bytes everywhere', async () => {
    const folder = creatureFolder()
    let now = Date.parse('2026-03-02T10:00:00Z')
    const mind = createMind({ folder, location: '.self', clock: { now: () => new Date(now) } })
    await mind.record({ role: 'user', name: `Ada ${KEY}`, content: 'Deploy the site by Friday.' })
    for (let index = 0; index < 6; index += 1) {
      await mind.action({
        tool: KEY,
        content: `GET /status -> 200 ok, token ${KEY}\u0000 then \u001b[2J\u001b[31mred\u0007 run ${index}`,
      })
      now += 60_000
    }
    const slept = await mind.sleep({ seconds: 300 })
    expect(slept.consolidation).toBe('full')
    for (const file of ['conversation.jsonl', 'dreams.jsonl', 'observations.md']) {
      const text = readFileSync(join(folder, file), 'utf8')
      expect(text, file).not.toContain('Zq7xW2Zq7xW2')
      expect(text, file).not.toMatch(RAW_CONTROL)
      // JSON escapes hide raw bytes: the stored strings themselves hold none either.
      expect(text, file).not.toMatch(/\\u00(?:0[0-8bcef]|1[0-9a-f])/i)
    }
    expect(readFileSync(join(folder, 'conversation.jsonl'), 'utf8')).toContain('␛[2J')
    const cwd = join(folder, '..')
    for (const verb of [['observations'], ['context'], ['dreams'], ['recall', 'status']]) {
      const shown = await runCliCaptured(['mind', ...verb], { cwd })
      expect(shown.code, verb.join(' ')).toBe(0)
      expect(shown.stdout, verb.join(' ')).not.toMatch(RAW_CONTROL)
      expect(shown.stdout, verb.join(' ')).not.toContain('Zq7xW2Zq7xW2')
    }
    // A hand-edited file is shown inert too.
    writeFileSync(
      join(folder, 'observations.md'),
      `${readFileSync(join(folder, 'observations.md'), 'utf8')}RED 10:00 planted \u001b[2J line\n`,
    )
    const shown = await runCliCaptured(['mind', 'observations'], { cwd })
    expect(shown.stdout).toContain('planted ␛[2J line')
  })

  it('files observations under the day of their event, and expires them from it', async () => {
    const folder = creatureFolder()
    let now = Date.parse('2026-03-05T12:00:00Z')
    const mind = createMind({
      folder,
      clock: { now: () => new Date(now) },
      config: { deepSleepEvery: 2 },
    })
    // Three days ago: routine tool output (GRN) and a person's plan.
    for (let index = 0; index < 6; index += 1) {
      await mind.action({
        tool: 'bash',
        content: `ls build/ -> app-${index}.js vendor-${index}.js`,
        at: `2026-03-02T09:0${index}:00Z`,
      })
    }
    await mind.record({
      role: 'user',
      content: 'Ada moved to Lisbon in 2024.',
      at: '2026-03-02T09:30:00Z',
    })
    await mind.sleep({ seconds: 300 })
    const observations = readFileSync(join(folder, 'observations.md'), 'utf8')
    expect(observations).toMatch(/^## 2026-03-02$/m)
    expect(observations).not.toMatch(/^## 2026-03-05$/m)
    const dreams = await mind.dreams()
    expect(dreams[0]?.detail.every((item) => item.date === '2026-03-02')).toBe(true)
    // The next dream is a deep sleep: GRN lines are 75 h old by their event, past 48 h.
    now += 3_600_000
    await mind.wake()
    for (let index = 0; index < 6; index += 1) {
      await mind.action({ tool: 'bash', content: `npm run lint -> ${index} warnings in src/` })
    }
    const deep = await mind.sleep({ seconds: 700 })
    expect(deep.deep).toBe(true)
    const archive = readFileSync(join(folder, 'observations-archive.md'), 'utf8')
    expect(archive).toMatch(/^GRN 09:0\d tool bash.*2026-03-02; expired -->$/m)
  })

  it('tells the truth in the diary when a deep sleep is cut short after its prune', async () => {
    const folder = creatureFolder()
    const now = Date.parse('2026-03-05T12:00:00Z')
    const clock = { now: () => new Date(now) }
    const real = createFsMindStore({ folder })
    let armed = true
    // The process dies right after the pruned observations.md is written.
    const dying: MindStore = {
      ...real,
      exclusive: (work) =>
        real.exclusive((files) =>
          work({
            ...files,
            writeDocument: async (document, text) => {
              await files.writeDocument(document, text)
              if (document === 'observations' && armed) {
                armed = false
                throw new Error('killed')
              }
            },
          }),
        ),
    }
    const first = createMind({ store: dying, clock, config: { deepSleepEvery: 1 } })
    for (let index = 0; index < 6; index += 1) {
      await first.action({
        tool: 'bash',
        content: `ls dist/ -> chunk-${index}.js`,
        at: `2026-03-01T08:0${index}:00Z`,
      })
    }
    await expect(first.sleep({ seconds: 300 })).rejects.toThrow('killed')
    // The next process finishes the commit.
    await createMind({ folder, clock }).record({ role: 'system', content: 'restarted' })
    const archived = readFileSync(join(folder, 'observations-archive.md'), 'utf8')
      .split('\n')
      .filter((line) => /^(RED|YLW|GRN) /.test(line)).length
    expect(archived).toBeGreaterThan(0)
    const diary = readFileSync(join(folder, 'diary.md'), 'utf8')
    expect(diary).toMatch(new RegExp(`Pruned ${archived} expired`))
  })

  it('says so when an action comes while asleep, and the status text uses the settings', async () => {
    const folder = creatureFolder()
    const cwd = join(folder, '..')
    const first = await runCliCaptured(['mind', 'record', 'user', 'hello'], { cwd })
    expect(first.code).toBe(0)
    writeFileSync(join(folder, 'mind.json'), JSON.stringify({ quickNapSeconds: 45 }))
    const status = await runCliCaptured(['mind', 'status'], { cwd })
    expect(status.stdout).toContain('A sleep of 45 s or more would consolidate now.')
    expect(status.stdout).not.toContain('30 s')
    await runCliCaptured(['mind', 'sleep', '60'], { cwd })
    const action = await runCliCaptured(['mind', 'action', 'bash', 'ls -> a.txt', '--json'], {
      cwd,
    })
    expect(JSON.parse(action.stdout).asleep).toMatch(/^The creature is asleep until \S+Z/)
    const text = await runCliCaptured(['mind', 'action', 'bash', 'ls -> b.txt'], { cwd })
    expect(text.stdout).toMatch(/asleep until .*logged and counted anyway/)
  })
})
