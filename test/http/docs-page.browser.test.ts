/** The /docs page in a real browser: it renders every operation of /openapi.json. */
import { chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpApp } from '../../src/surfaces/http/create-http-app.ts'
import { serviceApiFor } from '../../src/surfaces/http/service-api-for.ts'
import {
  type RunningHttpServer,
  startHttpServer,
} from '../../src/surfaces/http/start-http-server.ts'
import { CHROMIUM_PATH, HAS_CHROMIUM } from '../support/chromium.ts'
import { openTestService } from '../support/http-service.ts'

describe.skipIf(!HAS_CHROMIUM)('docs page in chromium', () => {
  let server: RunningHttpServer
  let dispose: () => Promise<void>
  beforeAll(async () => {
    const opened = await openTestService('pglite')
    dispose = opened.dispose
    const app = createHttpApp({
      service: serviceApiFor(opened.somnus),
      auth: { required: true },
      version: '9.9.9',
    })
    server = await startHttpServer({
      fetch: app.fetch,
      host: '127.0.0.1',
      port: 0,
      authRequired: true,
    })
  })
  afterAll(async () => {
    await server?.close()
    await dispose?.()
  })

  it('lists every path and method of /openapi.json with its parameters and body', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const expected = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    )
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] })
    try {
      const page = await browser.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${server.url}/docs`)
      await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 })
      const shown = await page.$$eval('section.operation', (sections) =>
        sections.map((section) => `${section.dataset.method} ${section.dataset.path}`),
      )
      expect(shown.sort()).toEqual(expected.sort())
      expect(await page.textContent('#title')).toBe('Somnus consolidation API 9.9.9')
      const run = page.locator('section[data-path="/api/v1/consolidation/run"]')
      expect(await run.textContent()).toContain('job_type')
      const jobs = page.locator('section[data-path="/api/v1/consolidation/jobs"]')
      expect(await jobs.textContent()).toContain('limit')
      expect(await jobs.textContent()).toContain('pending | running | completed | failed')
      expect(errors).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
