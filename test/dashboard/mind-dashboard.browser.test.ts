/**
 * `somnus dashboard --mind` in Debian's chromium, on a creature after a LoCoMo replay: no console
 * errors, fatigue with the warning and limit lines, dreams on a timeline and observations by
 * priority and age, each chart with as many points as its data, and the folder left unchanged.
 */
import { dirname } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { CHROMIUM_SKIP_REASON, HAS_CHROMIUM } from '../support/chromium.ts'
import {
  type DashboardProcess,
  folderHashes,
  launchChromium,
  openView,
  startDashboard,
  watchedPage,
} from '../support/dashboard-browser.ts'
import { type ReplayedCreature, replayCreature } from '../support/dashboard-creature.ts'
import { HAS_SHARED, SHARED_SKIP_REASON } from '../support/shared-data.ts'

if (!HAS_CHROMIUM) console.warn(`[mind dashboard] skipped: ${CHROMIUM_SKIP_REASON}`)
else if (!HAS_SHARED) console.warn(`[mind dashboard] skipped: ${SHARED_SKIP_REASON}`)

interface MindOverview {
  status: { warning_at: number; limit: number; dreams: number }
  fatigue: { actions: number }[]
  dreams: { kind: string }[]
  observations_by_age: Record<string, number | string>[]
  observation_count: number
  priorities: unknown[]
}

describe.skipIf(!HAS_CHROMIUM || !HAS_SHARED)('creature dashboard in chromium', () => {
  let creature: ReplayedCreature
  let dashboard: DashboardProcess
  let browser: Browser
  let before: Record<string, string>

  beforeAll(async () => {
    await ensureBuilt()
    creature = await replayCreature()
    before = folderHashes(creature.folder)
    dashboard = await startDashboard(['--mind', '.self'], { cwd: dirname(creature.folder) })
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await dashboard?.stop()
  })

  it('draws fatigue, dreams and observations, each chart with as many points as its data', async () => {
    const data = (await (await fetch(`${dashboard.url}api/overview`)).json()) as MindOverview
    expect(data.dreams).toHaveLength(creature.dreams)
    expect(data.status.dreams).toBe(creature.dreams)
    // The replay was forced to sleep at the limit: the chart shows it reaching the line.
    expect(creature.forcedSleeps).toBeGreaterThan(0)
    expect(Math.max(...data.fatigue.map((point) => point.actions))).toBe(data.status.limit)
    const { page, errors } = await watchedPage(browser)
    const points = (id: string) => page.getAttribute(`#${id}`, 'data-points')
    const rows = (id: string) => page.locator(`#${id} .table-wrap tbody tr`).count()

    await openView(page, dashboard.url, 'fatigue')
    expect(await points('fatigue-chart')).toBe(String(2 * creature.dreams + 1))
    expect(await rows('fatigue-chart')).toBe(data.fatigue.length)
    const legend = await page.locator('#fatigue-chart .u-legend').textContent()
    expect(legend).toContain(`warning (${data.status.warning_at})`)
    expect(legend).toContain(`limit (${data.status.limit})`)

    await openView(page, dashboard.url, 'dreams')
    expect(await points('dreams-chart')).toBe(String(creature.dreams))
    expect(await rows('dreams-chart')).toBe(creature.dreams)
    expect(data.dreams.some((dream) => dream.kind === 'deep') || creature.dreams < 10).toBe(true)

    await openView(page, dashboard.url, 'observations')
    // One bar per age and priority.
    expect(await points('observations-chart')).toBe(String(3 * data.observations_by_age.length))
    expect(await rows('observations-chart')).toBe(data.observations_by_age.length)
    const counted = data.observations_by_age.reduce(
      (sum, bucket) => sum + Number(bucket.RED) + Number(bucket.YLW) + Number(bucket.GRN),
      0,
    )
    expect(counted).toBe(data.observation_count)
    expect(data.observation_count).toBeGreaterThan(0)

    await openView(page, dashboard.url, 'priorities')
    expect(await page.locator('.table-wrap tbody tr').count()).toBe(data.priorities.length)
    expect(errors).toEqual([])
  })

  it('changes nothing in the creature folder', () => {
    expect(folderHashes(creature.folder)).toEqual(before)
  })
})
