/**
 * `/dashboard/` of `somnus serve` in Debian's chromium, for a tenant after `consolidate run` on a
 * LoCoMo conversation's handoffs: the key is asked for and kept out of URLs and storage, each
 * chart holds as many points as its data, and another tenant's key sees none of the first's data.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/build-once.ts'
import { CHROMIUM_SKIP_REASON, HAS_CHROMIUM } from '../support/chromium.ts'
import { launchChromium, openView, watchedPage } from '../support/dashboard-browser.ts'
import { runCliCaptured } from '../support/run-cli-captured.ts'
import { type ServeProcess, startServe } from '../support/serve-process.ts'
import { HAS_SHARED, LOCOMO_DIR, SHARED_SKIP_REASON } from '../support/shared-data.ts'

if (!HAS_CHROMIUM) console.warn(`[tenant dashboard] skipped: ${CHROMIUM_SKIP_REASON}`)
else if (!HAS_SHARED) console.warn(`[tenant dashboard] skipped: ${SHARED_SKIP_REASON}`)

interface TenantOverview {
  tenant_id: string
  tokens_by_day: unknown[]
  tokens_by_job_type: unknown[]
  handoffs_by_level: { level: string; count: number }[]
  jobs: { job_id: string; status: string }[]
  principles: { decision: string }[]
}

describe.skipIf(!HAS_CHROMIUM || !HAS_SHARED)('tenant dashboard in chromium', () => {
  let folder: string
  let serve: ServeProcess
  let browser: Browser
  const keys: Record<string, string> = {}
  const somnus = async (...args: string[]) => {
    const run = await runCliCaptured([...args, '--db', join(folder, 'db')], {
      cwd: folder,
      env: { HOME: folder },
    })
    expect(run.code, run.stderr).toBe(0)
    return run.stdout
  }
  const overview = async (key: string) =>
    (await (
      await fetch(`${serve.url}/dashboard/api/overview`, {
        headers: { Authorization: `Bearer ${key}` },
      })
    ).json()) as TenantOverview

  beforeAll(async () => {
    await ensureBuilt()
    folder = mkdtempSync(join(tmpdir(), 'somnus-dashboard-tenant-'))
    for (const tenant of ['alpha', 'beta']) {
      keys[tenant] = JSON.parse(await somnus('tenant', 'create', tenant, '--json')).key.key
    }
    await somnus(
      'handoffs',
      'import',
      join(LOCOMO_DIR, '26.json'),
      '--format',
      'locomo',
      '--tenant',
      'alpha',
    )
    await somnus('consolidate', 'run', '--tenant', 'alpha', '--json')
    serve = await startServe(
      ['--db', join(folder, 'db'), '--port', '0', '--no-scheduler', '--no-worker'],
      { cwd: folder, env: { HOME: folder } },
    )
    browser = await launchChromium()
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    serve?.child.kill('SIGTERM')
    await serve?.exited
  })

  async function signIn(page: Page, key: string) {
    await page.fill('#api-key', key)
    await page.keyboard.press('Enter')
    await page.waitForSelector('#forget-key')
  }

  it("draws the tenant's savings, levels, jobs and principles behind its key", async () => {
    const data = await overview(keys.alpha ?? '')
    expect(data.tenant_id).toBe('alpha')
    expect(data.jobs.length).toBeGreaterThan(0)
    expect(data.jobs.every((job) => job.status === 'completed')).toBe(true)
    expect(data.handoffs_by_level.reduce((sum, row) => sum + row.count, 0)).toBeGreaterThan(10)
    const { page, errors } = await watchedPage(browser)
    const points = (id: string) => page.getAttribute(`#${id}`, 'data-points')
    await openView(page, `${serve.url}/dashboard/`, 'tokens')
    // Asked for the key first; nothing of the tenant's is shown before it.
    expect(await page.locator('#api-key').count()).toBe(1)
    await signIn(page, keys.alpha ?? '')
    expect(await points('tokens-day-chart')).toBe(String(data.tokens_by_day.length))
    expect(await points('tokens-type-chart')).toBe(String(data.tokens_by_job_type.length))
    await page.getByRole('link', { name: 'Handoffs' }).click()
    await page.waitForSelector('#levels-chart')
    expect(await points('levels-chart')).toBe(String(data.handoffs_by_level.length))
    await page.getByRole('link', { name: 'Jobs' }).click()
    await page.waitForSelector('.table-wrap')
    expect(await page.locator('.table-wrap tbody tr').count()).toBe(data.jobs.length)
    await page.getByRole('link', { name: 'Principles' }).click()
    await page.waitForSelector('.table-wrap')
    expect(await page.locator('.table-wrap tbody tr').count()).toBe(data.principles.length)
    // The key is in no URL and no storage.
    expect(page.url()).not.toContain(keys.alpha)
    expect(await page.evaluate('localStorage.length + sessionStorage.length')).toBe(0)
    expect(errors).toEqual([])
  })

  it("shows another tenant's key none of the first tenant's data", async () => {
    const alpha = await overview(keys.alpha ?? '')
    const beta = await overview(keys.beta ?? '')
    expect(beta.tenant_id).toBe('beta')
    expect(beta.jobs).toEqual([])
    expect(beta.principles).toEqual([])
    expect(beta.handoffs_by_level.reduce((sum, row) => sum + row.count, 0)).toBe(0)
    const { page, errors } = await watchedPage(browser)
    await openView(page, `${serve.url}/dashboard/`, 'jobs')
    await signIn(page, keys.beta ?? '')
    const shown = async () => (await page.locator('main').textContent()) ?? ''
    for (const view of ['jobs', 'principles', 'handoffs', 'tokens']) {
      await page.getByRole('link', { name: new RegExp(`^${view}`, 'i') }).click()
      await page.waitForSelector('body[data-ready="true"]')
      const text = await shown()
      for (const job of alpha.jobs) expect(text).not.toContain(job.job_id)
      for (const principle of alpha.principles) expect(text).not.toContain(principle.decision)
    }
    expect(await page.textContent('#subtitle')).toContain('tenant beta')
    expect(errors).toEqual([])
  })

  it('refuses the data without a valid key', async () => {
    const none = await fetch(`${serve.url}/dashboard/api/overview`)
    expect(none.status).toBe(401)
    const wrong = await fetch(`${serve.url}/dashboard/api/overview`, {
      headers: { Authorization: 'Bearer smn_not-a-key' },
    })
    expect(wrong.status).toBe(401)
  })
})
