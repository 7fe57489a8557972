/**
 * A brain with more sleeps than a table draws at once: the tables show a page of rows and every
 * row is reached with the keyboard through the pager; the overview follows a record that changes
 * on disk (its summary is kept between requests); a sleep's diff is read on click; nothing in the
 * project changes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
import { runCliCaptured } from '../support/run-cli-captured.ts'

if (!HAS_CHROMIUM) console.warn(`[dashboard] skipped: ${CHROMIUM_SKIP_REASON}`)

const SLEEPS = 150
/** What the page draws at once (PAGE_ROWS in templates/dashboard/dashboard.js). */
const PAGE_ROWS = 100

/** The record of sleep `index`, adding `added` lines to the memory. */
function record(index: number, added: number) {
  const at = new Date(Date.parse('2026-01-01T00:00:00Z') + index * 3_600_000).toISOString()
  return {
    version: 1,
    run_id: `run_${index}`,
    created_at: at,
    summary: 'test',
    sessions: [
      {
        session_id: `${index.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
        stopped_at: at,
        score: index % 12,
        change_count: 1,
        tool_count: 2,
      },
    ],
    bookmarks: [],
    files: [
      {
        path: 'core/2.memory.md',
        created: false,
        added,
        removed: 0,
        hunks: [
          {
            old_start: 1,
            new_start: 1,
            lines: Array.from({ length: added }, (_, line) => `+- Lesson ${index}.${line}`),
          },
        ],
      },
    ],
  }
}

describe.skipIf(!HAS_CHROMIUM)('brain dashboard with many sleeps', () => {
  let project: string
  let records: string
  let dashboard: DashboardProcess
  let browser: Browser
  let before: Record<string, string>
  const overview = async () =>
    (await (await fetch(`${dashboard.url}api/overview`)).json()) as {
      debt_series: unknown[]
      sleeps: { id: string; number: number; lines_added: number | null }[]
    }

  beforeAll(async () => {
    await ensureBuilt()
    project = mkdtempSync(join(tmpdir(), 'somnus-dashboard-paging-'))
    const init = await runCliCaptured(['init', project], { cwd: project, env: { HOME: project } })
    expect(init.code, init.stderr).toBe(0)
    const state = join(project, '_agent_context', 'state')
    records = join(state, '.sleeps')
    mkdirSync(records, { recursive: true })
    const history = []
    for (let index = 0; index < SLEEPS; index++) {
      const entry = record(index, 1)
      history.unshift({
        date: entry.created_at.slice(0, 10),
        consolidated_at: entry.created_at,
        summary: `sleep ${index}`,
        debt_before: index % 12,
        debt_after: 0,
        sessions_processed: 1,
        bookmarks_processed: 0,
        session_ids: [entry.sessions[0]?.session_id],
        bookmark_ids: [],
        run_id: entry.run_id,
      })
      writeFileSync(join(records, `run_${index}.json`), `${JSON.stringify(entry)}\n`)
    }
    writeFileSync(join(state, '.sleep-history.json'), `${JSON.stringify(history, null, 2)}\n`)
    before = folderHashes(project)
    dashboard = await startDashboard([], { cwd: project })
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await dashboard?.stop()
  })

  it('draws a page of rows and reaches every row with the keyboard', async () => {
    const data = await overview()
    expect(data.debt_series).toHaveLength(2 * SLEEPS + 1)
    const { page, errors } = await watchedPage(browser)
    await openView(page, dashboard.url, 'debt')
    const table = page.locator('#debt-chart .table-wrap')
    expect(await table.locator('table').getAttribute('data-rows')).toBe(String(2 * SLEEPS + 1))
    expect(await table.locator('tbody tr').count()).toBe(PAGE_ROWS)
    expect(await page.getAttribute('#debt-chart', 'data-points')).toBe(String(2 * SLEEPS + 1))
    const next = table.locator('button.pager-next')
    const seen = [await table.locator('tbody tr').first().textContent()]
    while (await next.isEnabled()) {
      await next.focus()
      await page.keyboard.press('Enter')
      seen.push(await table.locator('tbody tr').first().textContent())
    }
    expect(seen).toHaveLength(Math.ceil((2 * SLEEPS + 1) / PAGE_ROWS))
    expect(new Set(seen).size).toBe(seen.length)
    expect(await table.locator('tbody tr').count()).toBe((2 * SLEEPS + 1) % PAGE_ROWS)
    expect(await table.locator('tbody tr').last().textContent()).toContain('now')
    expect(await table.locator('.pager-status').textContent()).toContain(`of ${2 * SLEEPS + 1}`)
    expect(errors).toEqual([])
  })

  it('follows a record that changes on disk, and shows a sleep diff on click', async () => {
    expect((await overview()).sleeps.find((sleep) => sleep.id === 'run_7')?.lines_added).toBe(1)
    // A record rewritten under the running dashboard (as another process might): the next overview
    // shows it, not the summary kept from before. Put back before the read-only check.
    const path = join(records, 'run_7.json')
    writeFileSync(path, `${JSON.stringify(record(7, 3))}\n`)
    try {
      expect((await overview()).sleeps.find((sleep) => sleep.id === 'run_7')?.lines_added).toBe(3)
      const { page, errors } = await watchedPage(browser)
      await openView(page, dashboard.url, 'sleep/run_7')
      expect(await page.locator('#sleep-detail .diff .add').count()).toBe(3)
      expect(errors).toEqual([])
    } finally {
      writeFileSync(path, `${JSON.stringify(record(7, 1))}\n`)
    }
  })

  it('leaves the project as it was', () => {
    expect(folderHashes(project)).toEqual(before)
  })
})
