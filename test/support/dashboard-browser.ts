/** `somnus dashboard` as its own process (the built CLI), and Debian's chromium to look at it. */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { SOMNUS_BIN } from './build-once.ts'
import { CHROMIUM_PATH } from './chromium.ts'

/** A running `somnus dashboard`. */
export interface DashboardProcess {
  url: string
  stop(): Promise<void>
}

/** Starts `somnus dashboard --port 0 --json <args>` in `cwd` and resolves with its URL. */
export async function startDashboard(
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<DashboardProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [SOMNUS_BIN, 'dashboard', '--port', '0', '--json', ...args],
    {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: options.cwd, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const line = stdout.split('\n')[0]
      if (stdout.includes('\n') && line) {
        clearInterval(timer)
        resolve((JSON.parse(line) as { url: string }).url)
      }
    }, 50)
    void exited.then((code) => {
      clearInterval(timer)
      reject(new Error(`dashboard exited ${code}: ${stdout}${stderr}`))
    })
  })
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Chromium as the house launches it: headless, no network of its own, a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

/** A page that records every console error and uncaught exception. */
export async function watchedPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      errors.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  return { page, errors }
}

/** Goes to `url#hash` and waits until the page has drawn it. */
export async function openView(page: Page, url: string, hash: string): Promise<void> {
  await page.goto(`${url}#${hash}`)
  await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 })
}

/** Every file under `folder` with a hash of its bytes: what "read-only" compares. */
export function folderHashes(folder: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile())
        out[relative(folder, full)] = createHash('sha256').update(readFileSync(full)).digest('hex')
    }
  }
  walk(folder)
  return out
}
