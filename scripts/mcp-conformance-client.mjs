#!/usr/bin/env node
// The client under test of the MCP conformance suite's client mode (scripts/mcp-conformance.mjs
// --mode client): the suite runs `node scripts/mcp-conformance-client.mjs <server url>` once per
// scenario, with MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT where the scenario
// brings credentials). This driver is not an MCP client itself: it makes agentd's MCP client
// (plugins/mcp) do the work, through agentd's own API, as a user would:
//   1. asks the orchestrator (AGENTD_CONFORMANCE_COORDINATOR) to add the scenario's server to
//      agentd's mcp_servers.json (`auth: "oauth"` for the auth/* scenarios; the pre-registered
//      client of the context as client_id/client_secret) and to wait until agentd has read it;
//   2. POST /api/mcp/connect; a `needs_auth` answer carries the authorization URL, which the
//      driver opens as a browser would (the suite's authorization server approves without a
//      person and redirects) and follows to agentd's callback route, which finishes the flow;
//   3. calls the server's tool through POST /api/tools/call (add_numbers for tools_call), and
//      authorizes again when the tool asks for more scope (step-up).
//   4. disconnects the server in agentd (POST /api/mcp/disconnect), so the scenario's server
//      can stop at once.
// Exits 0 when agentd connected and the tool answered; otherwise 1 with what went wrong.

const SCENARIO = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const CONTEXT = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}')
const COORDINATOR = process.env.AGENTD_CONFORMANCE_COORDINATOR
const serverUrl = process.argv.at(-1)

class Failed extends Error {}
const fail = (why) => { throw new Failed(why) }

/** Set once the server is in agentd: disconnecting it at the end closes agentd's streams to the scenario's server, whose stop waits for them. */
let disconnect = async () => {}

async function json (url, init) {
  const res = await fetch(url, init)
  const text = await res.text()
  let body
  try { body = JSON.parse(text) } catch { body = text }
  if (!res.ok) fail(`${init?.method ?? 'GET'} ${url}: HTTP ${res.status} ${text.slice(0, 500)}`)
  return body
}

const post = async (url, body) => await json(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** The mcp_servers.json entry for this scenario. */
function entry () {
  const e = { transport: 'streamable_http', url: serverUrl, timeout: 15, auto_connect: false, auto_reconnect: false }
  if (!SCENARIO.startsWith('auth/')) return e
  if (CONTEXT.client_id !== undefined) {
    const grant = SCENARIO.startsWith('auth/client-credentials') ? 'client_credentials' : 'authorization_code'
    return { ...e, auth: { type: 'oauth', grant, client_id: CONTEXT.client_id, client_secret: CONTEXT.client_secret } }
  }
  // agentd's client metadata document (SEP-991), where a deployment publishes one; the
  // suite's authorization server expects this URL as the client_id.
  if (SCENARIO === 'auth/basic-cimd') return { ...e, auth: { type: 'oauth', client_metadata_url: 'https://conformance-test.local/client-metadata.json' } }
  return { ...e, auth: 'oauth' }
}

/** Opens the authorization URL as a browser would and follows the redirect to agentd's callback. */
async function authorize (url) {
  const res = await fetch(url, { redirect: 'manual' })
  const location = res.headers.get('location')
  if (location === null) fail(`the authorization server answered ${res.status} without a redirect`)
  const cb = await fetch(location)
  if (!cb.ok) fail(`agentd's callback answered ${cb.status}: ${(await cb.text()).slice(0, 500)}`)
}

async function main () {
  if (COORDINATOR === undefined) fail('AGENTD_CONFORMANCE_COORDINATOR is not set: run this through scripts/mcp-conformance.mjs')
  const name = SCENARIO.replace(/[^A-Za-z0-9_.-]/g, '-')
  const { agentd } = await post(`${COORDINATOR}/servers`, { name, entry: entry() })
  disconnect = async () => { await fetch(`${agentd}/api/mcp/disconnect`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ server: name }) }) }
  let row = await post(`${agentd}/api/mcp/connect`, { server: name })
  for (let i = 0; row.status === 'needs_auth' && i < 3; i++) {
    await authorize(row.authorization_url)
    row = (await json(`${agentd}/api/mcp/servers`)).servers.find(s => s.name === name)
  }
  if (row.status !== 'connected') fail(`agentd did not connect: ${row.status} ${row.error ?? ''}`)
  for (let i = 0; i < 4; i++) {
    const { tools } = await json(`${agentd}/api/mcp/tools?server=${encodeURIComponent(name)}`)
    if (tools.length === 0) return
    const tool = tools.find(t => t.original_name === 'add_numbers') ?? tools[0]
    const args = tool.original_name === 'add_numbers' ? { a: 5, b: 3 } : {}
    const res = await fetch(`${agentd}/api/tools/call`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: tool.name, arguments: args, timeout_seconds: 20 }) })
    // Another scenario's server connected meanwhile with a tool of the same name, so agentd
    // now offers this one qualified (<server>__<tool>): list again.
    if (res.status === 404) continue
    const r = await res.json()
    if (!res.ok) fail(`POST /api/tools/call: HTTP ${res.status} ${JSON.stringify(r)}`)
    if (!r.is_error) { console.log(`${tool.original_name}: ${r.content}`); return }
    const now = (await json(`${agentd}/api/mcp/servers`)).servers.find(s => s.name === name)
    if (now.status !== 'needs_auth') fail(`${tool.original_name} failed: ${r.content}`)
    await authorize(now.auth.authorization_url)
  }
  fail('the tool call did not succeed in four tries')
}

main().then(async () => {
  await disconnect()
}, async (err) => {
  console.error(`mcp-conformance-client [${SCENARIO}]: ${err instanceof Failed ? err.message : err.stack ?? String(err)}`)
  await disconnect().catch(() => undefined)
  process.exitCode = 1
})
