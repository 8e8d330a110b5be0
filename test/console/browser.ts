// Debian's Chromium driven by playwright-core, for the console's end-to-end tests. One
// browser per test file; each test opens its own context (fresh storage) and closes it.
// Screenshots go to test-results/console/ (git-ignored) for a person to look at.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Test } from 'tap'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { REPO } from '../helpers/workspace.ts'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
export const SHOTS = path.join(REPO, 'test-results', 'console')

export async function launch (t: Test): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })
  t.teardown(async () => { await browser.close() })
  return browser
}

export const WIDTHS = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const

/**
 * A page in a fresh context at `viewport`; closed in teardown. `errors` collects uncaught
 * exceptions and console errors, but not the browser's line for each non-2xx answer (the
 * console asks for endpoints a server may not have, and shows the answer itself).
 */
export async function openPage (t: Test, browser: Browser, url: string, viewport: { width: number, height: number } = WIDTHS.desktop): Promise<{ page: Page, context: BrowserContext, errors: string[] }> {
  const context = await browser.newContext({ viewport })
  t.teardown(async () => { await context.close() })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', err => errors.push(err.message))
  page.on('console', msg => { if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) errors.push(msg.text()) })
  await page.goto(url)
  return { page, context, errors }
}

/** Saves `test-results/console/<name>-<width>.png` (full page). */
export async function shot (page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true })
  const file = path.join(SHOTS, `${name}-${page.viewportSize()?.width ?? 0}.png`)
  // From the top: a page scrolled by a focused control would put the sticky header mid-picture.
  await page.evaluate('window.scrollTo(0, 0)')
  await page.screenshot({ path: file, fullPage: true })
  return file
}
