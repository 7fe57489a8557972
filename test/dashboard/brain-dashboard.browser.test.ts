/**
 * `somnus dashboard` in Debian's chromium, on a brain built by real `sleep run`s of the shared
 * Claude Code sessions: the page loads without console errors, each chart holds as many points
 * as its data, a click on a sleep shows its diff, a source link opens the digest line, recall
 * answers, brain text is shown as text, and nothing in the project changes.
 */
import { request } from 'node:http'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { CHROMIUM_SKIP_REASON, HAS_CHROMIUM } from '../support/chromium.ts'
import { buildDashboardBrain, type DashboardBrain } from '../support/dashboard-brain.ts'
import {
  type DashboardProcess,
  folderHashes,
  launchChromium,
  openView,
  startDashboard,
  watchedPage,
} from '../support/dashboard-browser.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'

if (!HAS_CHROMIUM) console.warn(`[dashboard] skipped: ${CHROMIUM_SKIP_REASON}`)

/** Brain text that would run as script if the page ever set it as HTML. */
const HOSTILE = '<img src=x onerror="window.__pwned=1">Ship the <b>fix</b>'

interface Overview {
  debt_series: unknown[]
  sessions: { session_id: string; pending: boolean }[]
  sleeps: { id: string; number: number; has_diff: boolean; lines_added: number | null }[]
}

describe.skipIf(!HAS_CHROMIUM)('brain dashboard in chromium', () => {
  let brain: DashboardBrain
  let dashboard: DashboardProcess
  let browser: Browser
  let before: Record<string, string>
  const api = async <T>(path: string): Promise<T> =>
    (await (await fetch(`${dashboard.url}api/${path}`)).json()) as T

  beforeAll(async () => {
    await ensureBuilt()
    brain = await buildDashboardBrain()
    const added = await runCliCaptured(['bookmark', 'add', HOSTILE, '-s', '3'], {
      cwd: brain.project,
    })
    expect(added.code, added.stderr).toBe(0)
    before = folderHashes(brain.project)
    dashboard = await startDashboard([], { cwd: brain.project })
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await dashboard?.stop()
  })

  it('draws every view without a console error, each chart with as many points as its data', async () => {
    const overview = await api<Overview>('overview')
    expect(overview.sleeps).toHaveLength(brain.sleeps)
    const { page, errors } = await watchedPage(browser)
    await openView(page, dashboard.url, 'debt')
    const points = (id: string) => page.getAttribute(`#${id}`, 'data-points')
    const rows = (id: string) => page.locator(`#${id} .table-wrap tbody tr`).count()
    // Before and after each sleep, then now.
    expect(overview.debt_series).toHaveLength(2 * brain.sleeps + 1)
    expect(await points('debt-chart')).toBe(String(overview.debt_series.length))
    expect(await rows('debt-chart')).toBe(overview.debt_series.length)
    expect(await points('sessions-chart')).toBe(String(overview.sessions.length))
    expect(await rows('sessions-chart')).toBe(overview.sessions.length)
    const pending = overview.sessions.filter((session) => session.pending)
    expect(pending.map((session) => session.session_id)).toEqual(brain.pending)
    expect(await page.locator('#sessions-chart .table-wrap tr.pending').count()).toBe(
      brain.pending.length,
    )
    for (const view of ['sleeps', 'now', 'patterns', 'search'])
      await openView(page, dashboard.url, view)
    expect(errors).toEqual([])
  })

  it('shows a sleep diff on click, and a source link opens the digest line it cites', async () => {
    const overview = await api<Overview>('overview')
    const first = overview.sleeps.find((sleep) => sleep.number === 1)
    expect(first?.has_diff).toBe(true)
    const { page, errors } = await watchedPage(browser)
    await openView(page, dashboard.url, 'sleeps')
    await page.getByRole('link', { name: 'sleep 1', exact: true }).click()
    await page.waitForSelector('#sleep-detail')
    expect(await page.locator('#sleep-detail .diff .add').count()).toBe(first?.lines_added)
    const record = page.locator('#sleep-detail a[data-source="record"]').first()
    const id = (await record.textContent()) ?? ''
    expect(id).toMatch(/^[0-9a-f]{8}$/)
    await record.click()
    await page.waitForSelector('ol.doc li.target')
    expect(await page.getAttribute('ol.doc', 'data-path')).toMatch(/^knowledge\/sessions\/.+\.md$/)
    expect(await page.locator('ol.doc li.target').textContent()).toContain(id)
    // Keyboard users land on the line.
    expect(
      await page
        .locator('ol.doc li.target')
        .evaluate((line) => line.ownerDocument.activeElement === line),
    ).toBe(true)
    expect(errors).toEqual([])
  })

  it('searches with recall and opens a hit at its line', async () => {
    const { page, errors } = await watchedPage(browser)
    await openView(page, dashboard.url, 'search')
    await page.fill('#search-box', 'SQLite migration nullability')
    await page.keyboard.press('Enter')
    await page.waitForSelector('ol.hits li')
    const hit = page.locator('ol.hits li a').first()
    await hit.click()
    await page.waitForSelector('ol.doc li.target')
    expect((await page.locator('ol.doc li.target').textContent())?.toLowerCase()).toContain(
      'sqlite',
    )
    expect(errors).toEqual([])
  })

  it('shows brain text as text, never as markup', async () => {
    const { page, errors } = await watchedPage(browser)
    await openView(page, dashboard.url, 'now')
    await expect
      .poll(() => page.getByText(HOSTILE, { exact: true }).count(), { timeout: 5_000 })
      .toBe(1)
    expect(await page.evaluate('window.__pwned')).toBeUndefined()
    expect(await page.locator('main img').count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('refuses requests not addressed to the loopback and anything but GET', async () => {
    const status = (options: { method?: string; host?: string }) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(`${dashboard.url}api/overview`)
        const sent = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: options.method ?? 'GET',
            headers: { host: options.host ?? url.host },
          },
          (response) => {
            response.resume()
            resolve(response.statusCode ?? 0)
          },
        )
        sent.on('error', reject)
        sent.end()
      })
    expect(await status({ host: 'attacker.example:80' })).toBe(421)
    expect(await status({ host: 'localhost.attacker.example' })).toBe(421)
    expect(await status({ method: 'POST' })).toBe(405)
    expect(await status({})).toBe(200)
    // Host names are case-insensitive (this was a 421 before).
    expect(await status({ host: 'LOCALHOST' })).toBe(200)
    const page = await fetch(dashboard.url)
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
  })

  it('changes nothing in the project', () => {
    expect(folderHashes(brain.project)).toEqual(before)
  })
})
