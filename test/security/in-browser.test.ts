// The attacks as a real browser makes them (Debian's Chromium). DNS rebinding, faithfully:
// the browser resolves attacker.test to 127.0.0.1 (--host-resolver-rules) and loads the
// hostile page from attacker.test:P; after that page is served, port P "rebinds" (every
// new connection is forwarded to agentd), so the page's fetch of attacker.test:P/api/config
// is same-origin to the browser and reaches agentd, as it would after a DNS flip. The page
// also sends no-cors POSTs and tries to frame the console. The console itself still loads
// under its CSP.
import t from 'tap'
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { chromium } from 'playwright-core'
import { CHROMIUM, FLAGS } from '../console/browser.ts'
import { startConsoleServer } from '../console/server.ts'

const { s } = await startConsoleServer(t, { memory: false })
const agentdPort = Number(new URL(s.url).port)

/** The hostile site: one page whose script is given in the query string's test name. */
const hostile = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x')
  const target = `http://attacker.test:${rebinding.port}`
  const scripts: Record<string, string> = {
    // After rebinding, agentd's port is the page's own site: a plain same-origin read.
    read: `fetch('${target}/api/config').then(r => r.text().then(t => document.title = r.status + ' ' + t.slice(0, 40)), e => document.title = 'failed ' + e)`,
    // A no-cors POST straight at 127.0.0.1: no preflight, the answer unreadable, the effect is what counts.
    post: `fetch('http://127.0.0.1:${agentdPort}/api/plugins/reload', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' }).then(() => document.title = 'sent', e => document.title = 'failed ' + e)`,
    frame: `const f = document.createElement('iframe'); f.src = 'http://127.0.0.1:${agentdPort}/'; f.onload = () => { document.title = 'loaded' }; document.body.appendChild(f)`,
  }
  // Connection: close, so the page's own requests open new connections (to agentd, once rebound).
  res.once('finish', () => { rebinding.rebound = url.searchParams.get('do') === 'read' })
  res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end(`<!doctype html><title>start</title><body><script>${scripts[url.searchParams.get('do') ?? ''] ?? ''}</script></body>`)
})
/** Port P: the hostile site until its page is served, then (rebound) agentd. */
const rebinding = { port: 0, rebound: false }
const front = net.createServer(socket => {
  if (!rebinding.rebound) { hostile.emit('connection', socket); return }
  const upstream = net.connect(agentdPort, '127.0.0.1')
  socket.pipe(upstream).pipe(socket)
  socket.on('error', () => upstream.destroy())
  upstream.on('error', () => socket.destroy())
})
await new Promise<void>(resolve => front.listen(0, '127.0.0.1', resolve))
t.teardown(() => { front.close() })
rebinding.port = (front.address() as AddressInfo).port
const hostilePort = rebinding.port

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...FLAGS, '--host-resolver-rules=MAP attacker.test 127.0.0.1'] })
t.teardown(async () => { await browser.close() })

async function visit (what: string): Promise<{ title: string, consoleLines: string[], frameUrls: string[] }> {
  rebinding.rebound = false
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const consoleLines: string[] = []
    page.on('console', m => consoleLines.push(m.text()))
    await page.goto(`http://attacker.test:${hostilePort}/?do=${what}`)
    await page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title !== 'start', undefined, { timeout: 10_000 }).catch(() => undefined)
    await page.waitForTimeout(300)
    return { title: await page.title(), consoleLines, frameUrls: page.frames().map(f => f.url()) }
  } finally {
    await context.close()
  }
}

t.test('a rebound page reading agentd as its own origin gets 403, not the config', async t => {
  const { title } = await visit('read')
  t.match(title, /^403 /, title)
  t.notMatch(title, /providers|preferences/)
})

t.test('a no-cors POST from a foreign page changes nothing', async t => {
  const before = s.kernel.api.generation()
  const { title } = await visit('post')
  t.equal(title, 'sent', 'the browser sent it (no preflight for a simple request)')
  await new Promise(resolve => setTimeout(resolve, 300))
  t.equal(s.kernel.api.generation(), before, 'no reload happened: refused before any route')
})

t.test('a foreign page cannot frame the console', async t => {
  const { consoleLines } = await visit('frame')
  t.ok(consoleLines.some(l => /frame-ancestors|X-Frame-Options|refused to display/i.test(l)), `the browser refused to render it (${consoleLines.join(' | ').slice(0, 200)})`)
})

t.test('the console itself loads under its CSP with no violation', async t => {
  const context = await browser.newContext()
  t.teardown(async () => { await context.close() })
  const page = await context.newPage()
  const violations: string[] = []
  page.on('console', m => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()) })
  await page.goto(`${s.url}/`)
  await page.waitForSelector('#chat-input')
  for (const tab of ['Memory', 'Tools', 'Jobs', 'Prompts', 'System']) {
    await page.getByRole('link', { name: tab }).first().click().catch(() => undefined)
    await page.waitForTimeout(150)
  }
  t.same(violations, [])
})
