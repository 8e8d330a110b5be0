// How the console is served: first-load weight (compressed, counted in the browser), the
// API key asked once and kept for the tab, compression only on the console's files, and
// with the plugin disabled the API is exactly as before (`/` is the JSON 404).
import t from 'tap'
import { startConsoleServer } from './server.ts'
import { launch, openPage } from './browser.ts'

t.test('first load of / : weight counted in the browser, time measured (reported, not asserted)', async t => {
  const { s } = await startConsoleServer(t, { memory: false })
  const browser = await launch(t)
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  t.teardown(async () => { await context.close() })
  const page = await context.newPage()
  const sizes: Array<Promise<{ url: string, bytes: number }>> = []
  page.on('requestfinished', req => { sizes.push(req.sizes().then(z => ({ url: req.url(), bytes: z.responseBodySize + z.responseHeadersSize }))) })
  await page.goto(`${s.url}/`, { waitUntil: 'commit' })
  // Interactive: the composer is on screen (checked every animation frame), in ms since navigation start.
  // A function, not a string: the console's CSP forbids the eval a string predicate needs.
  await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document.querySelector('#chat-input') !== null, undefined, { polling: 'raf' })
  const interactiveMs = await page.evaluate('performance.now()') as number
  const domMs = await page.evaluate('performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd') as number
  await page.waitForLoadState('networkidle')
  const all = await Promise.all(sizes)
  const total = all.reduce((n, x) => n + x.bytes, 0)
  t.comment(`first load: ${all.length} requests, ${(total / 1024).toFixed(1)} KB on the wire; DOMContentLoaded ${domMs.toFixed(0)} ms, composer usable ${interactiveMs.toFixed(0)} ms`)
  // Again in the same browser (files revalidated with ETags, as on any later visit).
  const again = Date.now()
  await page.reload({ waitUntil: 'commit' })
  // A function, not a string: the console's CSP forbids the eval a string predicate needs.
  await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector: (s: string) => unknown } }).document.querySelector('#chat-input') !== null, undefined, { polling: 'raf' })
  t.comment(`reload: composer usable ${await page.evaluate('performance.now()') as number} ms after navigation start (${Date.now() - again} ms wall)`)
  t.ok(total < 300 * 1024, `under 300 KB compressed (${total} bytes)`)
  const script = await s.get('/console/js/pages/memory.js', { headers: { 'accept-encoding': 'br, gzip' } })
  t.match(script.headers.get('content-encoding'), /^(br|gzip)$/, 'the console\'s files are compressed')
  const apiAnswer = await s.get('/api/plugins', { headers: { 'accept-encoding': 'br, gzip' } })
  t.equal(apiAnswer.headers.get('content-encoding'), null, 'API answers are not (nothing added to their path)')
})

t.test('AGENT_API_KEY_REQUIRED: the page loads without the key, asks for it once, keeps it for the tab', async t => {
  const { s, fake } = await startConsoleServer(t, { memory: false, env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: 'the-console-key' } })
  t.equal((await s.get('/api/plugins')).status, 401, 'the API needs the key')
  t.equal((await s.get('/')).status, 200, 'the page does not (it holds no data)')
  t.equal((await s.get('/console/js/main.js')).status, 200)
  const browser = await launch(t)
  const { page } = await openPage(t, browser, `${s.url}/#/system`)
  const dialog = page.getByRole('dialog', { name: 'API key' })
  await dialog.waitFor()
  t.match(await dialog.textContent(), /X-API-Key/, 'says why, with the server\'s message')
  await page.fill('#api-key', 'the-console-key')
  await page.keyboard.press('Enter')
  await page.locator('table.plugins tbody tr').first().waitFor()
  t.notOk(await dialog.isVisible(), 'asked once')
  t.equal(await page.evaluate('sessionStorage.getItem("agentd.apiKey")'), 'the-console-key', 'kept in sessionStorage')
  // Another page and a chat stream use the same key without asking again.
  fake.enqueue({ text: 'Authorised answer.' })
  await page.goto(`${s.url}/#/chat`)
  await page.fill('#chat-input', 'hello')
  await page.keyboard.press('Enter')
  await page.locator('.answer', { hasText: 'Authorised answer.' }).waitFor()
  t.notOk(await dialog.isVisible(), 'not asked again')
})

t.test('with the console plugin disabled the API is unchanged', async t => {
  const { s } = await startConsoleServer(t, { memory: false, consoleEnabled: false })
  const root = await s.json('/')
  t.equal(root.status, 404)
  t.equal(root.body.code, 'AGENT_ERR_NOT_FOUND', 'the same JSON 404 as any unknown path')
  t.equal((await s.get('/console/js/main.js')).status, 404)
  t.equal((await s.json('/api/index')).status, 200)
})
