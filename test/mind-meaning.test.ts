/**
 * What a creature keeps, by meaning, on a real folder over many cycles: a person's standing order
 * given in a short (light) cycle is RED at once, in every wake message after it, and survives every
 * deep sleep however old; it leaves only when a later line says it is done or revoked (archived,
 * with the reason). Routine tool output is GRN whatever words it holds; a later success closes the
 * failure it fixes; the reflection says what happened, worked and is open; priorities.md lists the
 * open items only, with their state.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createMind } from '../src/mind/create-mind.ts'

function creature(config = {}) {
  const folder = join(mkdtempSync(join(tmpdir(), 'somnus-mind-meaning-')), '.self')
  let now = Date.parse('2026-04-06T08:00:00Z')
  const mind = createMind({
    folder,
    clock: { now: () => new Date(now) },
    config: { deepSleepEvery: 3, ...config },
  })
  const hours = (count: number) => {
    now += count * 3_600_000
  }
  return { mind, folder, hours }
}

describe('priority by meaning, standing orders kept', () => {
  it('keeps an order from a light cycle in every wake message, through deep sleeps, until revoked', async () => {
    const { mind, folder, hours } = creature()
    await mind.record({
      role: 'user',
      name: 'Noor',
      content: 'Do not touch the billing tables without asking me first.',
    })
    const light = await mind.sleep({ seconds: 600 })
    expect(light.consolidation).toBe('light')
    expect(readFileSync(join(folder, 'observations.md'), 'utf8')).toMatch(
      /^RED 08:00 Noor: Do not touch the billing tables without asking me first\.$/m,
    )
    const wakes: string[] = []
    for (let cycle = 0; cycle < 7; cycle += 1) {
      hours(30)
      wakes.push((await mind.wake()).message)
      for (let index = 0; index < 8; index += 1) {
        await mind.action({ tool: 'bash', content: `ls reports/ -> week-${cycle}-${index}.csv` })
      }
      await mind.sleep({ seconds: 600 })
    }
    hours(30)
    wakes.push((await mind.wake()).message)
    expect((await mind.dreams()).filter((dream) => dream.deep).length).toBeGreaterThanOrEqual(2)
    for (const message of wakes) {
      expect(message).toMatch(
        /Standing orders and commitments \(until done or revoked\):\n- 2026-04-06 RED 08:00 Noor: Do not touch the billing tables/,
      )
    }
    // Routine listings are GRN and expire from their event's day; the order is never pruned by age.
    const archive = readFileSync(join(folder, 'observations-archive.md'), 'utf8')
    expect(archive).toMatch(/^GRN \d\d:\d\d tool bash: ls reports\/.*; expired -->$/m)
    expect(archive).not.toContain('billing tables')

    await mind.record({
      role: 'user',
      name: 'Noor',
      content: 'You can now change the billing tables freely, the restriction is lifted.',
    })
    for (let index = 0; index < 8; index += 1) {
      await mind.action({ tool: 'bash', content: `psql -c 'select 1' -> ok ${index}` })
    }
    hours(1)
    await mind.sleep({ seconds: 600 })
    for (let cycle = 0; cycle < 3; cycle += 1) {
      hours(2)
      await mind.wake()
      await mind.action({ tool: 'bash', content: `date -> cycle ${cycle}` })
      await mind.action({ tool: 'bash', content: `uptime -> cycle ${cycle}` })
      await mind.action({ tool: 'bash', content: `df -h -> cycle ${cycle}` })
      await mind.action({ tool: 'bash', content: `free -m -> cycle ${cycle}` })
      await mind.action({ tool: 'bash', content: `whoami -> cycle ${cycle}` })
      await mind.sleep({ seconds: 600 })
    }
    const after = readFileSync(join(folder, 'observations-archive.md'), 'utf8')
    expect(after).toMatch(/Noor: Do not touch the billing tables.*; revoked -->$/m)
    hours(1)
    expect((await mind.wake()).message).not.toContain('Do not touch the billing tables')
  })

  it('ranks by meaning: routine output is GRN, a success closes its failure, a delivery meets its deadline', async () => {
    const { mind, folder, hours } = creature({ deepSleepEvery: 2 })
    await mind.record({
      role: 'user',
      name: 'Priya',
      content: 'Send the quarterly invoice summary to the accountant by Thursday.',
    })
    const tool = (content: string) => mind.action({ tool: 'bash', content })
    await tool('curl wttr.in/Lyon -> sunny, 24C, no fire ban in effect, light wind')
    await tool('git status -> nothing to commit, working tree clean')
    await tool('npm run build -> error TS2345 in src/invoice.ts (exit 1)')
    await tool('cat src/invoice.ts -> 120 lines')
    await tool('npm run build -> build passed in 4.1s')
    await tool('pytest tests/ -> 3 failed, 40 passed')
    const first = await mind.sleep({ seconds: 600 })
    const detail = first.dream?.detail ?? []
    const levelOf = (words: string) => detail.find((item) => item.text.includes(words))?.priority
    expect(levelOf('Send the quarterly invoice summary')).toBe('RED')
    expect(levelOf('no fire ban')).not.toBe('RED')
    expect(levelOf('working tree clean')).not.toBe('RED')
    expect(levelOf('working tree clean')).not.toBe('YLW')
    expect(levelOf('error TS2345')).not.toBe('RED')
    expect(levelOf('3 failed')).toBe('RED')
    const reflection = first.dream?.reflection ?? ''
    expect(reflection).toMatch(/^What happened \(6 actions, 1 message\): /)
    expect(reflection).toMatch(/\nWhat worked: .*build passed/)
    expect(reflection).toMatch(/\nStill open: Priya: Send the quarterly invoice summary.*3 failed/)
    expect(first.dream?.priority).toMatch(/^Priya: Send the quarterly invoice summary/)

    hours(20)
    await mind.wake()
    for (let index = 0; index < 5; index += 1) await tool(`ls out/ -> page-${index}.pdf`)
    await tool(
      'mail -s "Quarterly invoice summary" accountant@example.org < summary.pdf -> sent, delivered to the accountant',
    )
    await tool('pytest tests/ -> 43 passed')
    const deep = await mind.sleep({ seconds: 600 })
    expect(deep.deep).toBe(true)
    const archive = readFileSync(join(folder, 'observations-archive.md'), 'utf8')
    expect(archive).toMatch(/Priya: Send the quarterly invoice summary.*; done -->$/m)
    expect(archive).toMatch(/pytest tests\/ -> 3 failed.*; fixed -->$/m)
    const priorities = readFileSync(join(folder, 'priorities.md'), 'utf8')
    expect(priorities).toContain('No open items: choose the next goal.')
    expect(priorities).not.toContain('invoice')
  })

  it('lists only open items in priorities.md, newest evidence first, never a placeholder beside them', async () => {
    const { mind, folder, hours } = creature({ deepSleepEvery: 2 })
    await mind.record({
      role: 'user',
      name: 'Ines',
      content: 'Always run the migration dry-run before applying it.',
    })
    await mind.record({
      role: 'user',
      name: 'Ines',
      content: 'I need you to archive the 2025 tickets by Friday.',
    })
    await mind.action({ tool: 'bash', content: 'make deploy -> fatal: permission denied (exit 2)' })
    for (let index = 0; index < 4; index += 1)
      await mind.action({ tool: 'bash', content: `ls -> ${index}` })
    await mind.sleep({ seconds: 600 })
    hours(1)
    await mind.wake()
    // Progress on the tickets, not the end of it: the order stays open, with newer evidence.
    await mind.action({
      tool: 'bash',
      content:
        'ticket-cli archive --year 2025 -> submitted: 512 of 522 tickets archived, 10 remaining',
    })
    await mind.sleep({ seconds: 600 })
    const priorities = readFileSync(join(folder, 'priorities.md'), 'utf8')
    expect(priorities).not.toContain('No open items')
    const items = priorities.split('\n').filter((line) => /^\d+\. /.test(line))
    expect(items.length).toBe(3)
    expect(
      items.some((line) =>
        /\[order, open since 2026-04-06 08:00\] Ines: Always run the migration dry-run/.test(line),
      ),
    ).toBe(true)
    expect(
      items.some((line) => /failing since .*make deploy -> fatal: permission denied/.test(line)),
    ).toBe(true)
    // The tickets order has newer evidence (the partial archive run): listed first, with it.
    expect(items[0]).toMatch(
      /Ines: I need you to archive the 2025 tickets by Friday\. — latest \(2026-04-06 09:00\): tool bash: ticket-cli archive/,
    )
    expect(items.join('\n')).not.toMatch(/ls -> /)
  })
})
