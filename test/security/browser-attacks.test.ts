// What a hostile web page can try against agentd on the user's own machine, tried through
// real HTTP with the headers a browser sends, against agentd started as a user starts it
// (shipped plugins.json, embedded defaults): each attack is refused, and the same request
// from a local tool (no Origin) or from the console's own page still works.
import t from 'tap'
import { startAgentd, raw } from './agentd.ts'

const EVIL = 'attacker.example'
const s = await startAgentd(t)
const port = s.port
const here = `127.0.0.1:${port}`
const rebound = { host: `${EVIL}:${port}` }
const json = { 'content-type': 'application/json' }
const mcpInit = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '0' } } })
const mcpHeaders = { ...json, accept: 'application/json, text/event-stream' }

t.test('DNS rebinding: a foreign Host is refused on every kind of route, naming AGENT_ALLOWED_HOSTS', async t => {
  const probes: Array<[string, string, Record<string, string>, string?]> = [
    ['GET', '/api/config', {}],
    ['GET', '/', {}],
    ['GET', '/api/chat/sessions', {}],
    ['GET', '/docs/json', {}],
    ['GET', '/api/health', {}],
    ['POST', '/api/config/update', json, JSON.stringify({ key: 'preferences.enable_memory_by_default', value: false })],
    ['POST', '/mcp', mcpHeaders, mcpInit],
    ['OPTIONS', '/api/config/update', { origin: `http://${EVIL}:${port}`, 'access-control-request-method': 'POST' }],
  ]
  for (const [method, path, headers, body] of probes) {
    const r = await raw(port, method, path, { ...headers, ...rebound }, body)
    t.equal(r.status, 403, `${method} ${path}: 403`)
    t.equal(r.json?.code, 'AGENT_ERR_HOST_NOT_ALLOWED', `${method} ${path}: the code says why`)
    t.match(r.json?.error, /AGENT_ALLOWED_HOSTS/, `${method} ${path}: the message names the setting`)
    t.notOk(r.text.includes('preferences'), `${method} ${path}: nothing of the config leaks`)
  }
  t.equal((await raw(port, 'GET', '/api/config')).status, 200, 'the same read with Host 127.0.0.1 works')
  t.equal((await raw(port, 'GET', '/api/config', { host: `localhost:${port}` })).status, 200, 'and with Host localhost')
  t.equal((await raw(port, 'GET', '/', { host: `[::1]:${port}` })).status, 200, 'and with Host [::1]')
  const init = await raw(port, 'POST', '/mcp', mcpHeaders, mcpInit)
  t.equal(init.status, 200, '/mcp initialize from a local tool works')
})

t.test('a name that merely contains localhost or 127.0.0.1 is foreign', async t => {
  for (const host of ['localhost.attacker.example', '127.0.0.1.nip.io', 'attacker.example#localhost', 'LOCALHOST.']) {
    const r = await raw(port, 'GET', '/api/config', { host: `${host}:${port}` })
    t.equal(r.status, host === 'LOCALHOST.' ? 200 : 403, host)
  }
})

t.test('cross-site simple requests (text/plain, form, empty; no preflight) are refused on state-changing routes', async t => {
  const targets = ['/api/jobs/memory-consolidate/run', '/api/jobs/clear-stuck', '/api/plugins/reload', '/api/memory/consolidate', '/api/memory/reembed', '/api/config/update', '/v1/chat/completions', '/mcp']
  const bodies: Array<[string, Record<string, string>, string | undefined]> = [
    ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }, '{"key":"preferences.enable_memory_by_default","value":false}'],
    ['form', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['empty', {}, undefined],
    ['json', json, '{}'],
  ]
  for (const path of targets) {
    for (const [kind, headers, body] of bodies) {
      const r = await raw(port, 'POST', path, { ...headers, origin: `https://${EVIL}`, 'sec-fetch-site': 'cross-site' }, body)
      t.equal(r.status, 403, `${path} (${kind}) from https://${EVIL}: 403`)
      t.equal(r.json?.code, 'AGENT_ERR_ORIGIN_NOT_ALLOWED', `${path} (${kind}): the code says why`)
    }
  }
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    const r = await raw(port, method, '/api/memory/facts/x', { origin: 'null' })
    t.equal(r.status, 403, `${method} with Origin: null (a sandboxed frame): 403`)
  }
  const noOrigin = await raw(port, 'POST', '/api/memory/consolidate', { 'sec-fetch-site': 'cross-site' })
  t.equal(noOrigin.status, 403, 'Sec-Fetch-Site: cross-site without Origin: 403')
})

t.test('the same requests from a local tool (no Origin) and from the console\'s own page still work', async t => {
  const clear = await raw(port, 'POST', '/api/jobs/clear-stuck')
  t.equal(clear.status, 200, 'clear-stuck from curl')
  const own = await raw(port, 'POST', '/api/jobs/clear-stuck', { origin: `http://${here}`, 'sec-fetch-site': 'same-origin' })
  t.equal(own.status, 200, 'from the console at its own origin')
  const dev = await raw(port, 'POST', '/api/jobs/clear-stuck', { origin: 'http://localhost:5173', 'sec-fetch-site': 'cross-site' })
  t.equal(dev.status, 200, 'from a page served on this machine (a dev server on localhost)')
  const tauri = await raw(port, 'POST', '/api/jobs/clear-stuck', { origin: 'tauri://localhost' })
  t.equal(tauri.status, 200, 'from the original client, a desktop app (tauri://localhost)')
  const update = await raw(port, 'POST', '/api/config/update', { ...json, origin: `http://${here}` }, JSON.stringify({ key: 'preferences.enable_memory_by_default', value: true }))
  t.equal(update.status, 200, 'a config update from the console')
  const get = await raw(port, 'GET', '/api/config', { origin: `https://${EVIL}` })
  t.equal(get.status, 200, 'a foreign page may send a GET (it cannot read the answer: no CORS header)')
  t.equal(get.headers['access-control-allow-origin'], undefined)
})

t.test('config update keys named like Object members are a 400, not a 500', async t => {
  for (const body of [{ constructor: { x: 1 } }, { toString: 1 }, { key: 'constructor.prototype', value: 1 }, { providers: { constructor: { api_key: 'x' } } }, { models: { hasOwnProperty: {} } }]) {
    const r = await raw(port, 'POST', '/api/config/update', json, JSON.stringify(body))
    t.equal(r.status, 400, JSON.stringify(body))
  }
})

t.test('the console\'s page carries a Content-Security-Policy and cannot be framed', async t => {
  const page = await raw(port, 'GET', '/')
  t.equal(page.status, 200)
  const csp = String(page.headers['content-security-policy'])
  t.match(csp, /frame-ancestors 'none'/)
  t.match(csp, /default-src 'self'/)
  t.match(csp, /script-src 'self' 'sha256-/, 'the inline import map by its hash, no unsafe-inline script')
  t.notMatch(csp, /script-src[^;]*unsafe-inline/)
  t.equal(page.headers['x-content-type-options'], 'nosniff')
  t.equal(page.headers['x-frame-options'], 'DENY')
  t.equal(page.headers['referrer-policy'], 'no-referrer')
  const script = await raw(port, 'GET', '/console/js/main.js')
  t.equal(script.headers['x-content-type-options'], 'nosniff', 'the console\'s files too')
})

t.test('POST /api/memory/reset with no body works (its body is optional)', async t => {
  const r = await raw(port, 'POST', '/api/memory/reset')
  t.equal(r.status, 200, r.text)
})
