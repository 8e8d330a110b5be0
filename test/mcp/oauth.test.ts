// Remote tool servers behind OAuth (auth: "oauth" in mcp_servers.json): agentd's MCP client
// against the SDK-written fixture server with a fake authorization server beside it on
// loopback (test/fakes/oauth-authority.ts: RFC 9728/8414 metadata, dynamic registration,
// PKCE, refresh and client-credentials grants). One kernel for the file, a fixture per server.
import t from 'tap'
import { statSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { startMcp, isConnected, type McpStarted } from './helpers.ts'
import { startFixtureServer, type FixtureServer } from '../fixtures/mcp/server.ts'

const SECRET = 'cc-secret-value-4242'
const coded = await startFixtureServer('streamable_http', 'coded', 0, { oauth: {} })
const machine = await startFixtureServer('streamable_http', 'machine', 0, { oauth: { client: { id: 'agentd-ci', secret: SECRET } } })
const short = await startFixtureServer('streamable_http', 'short', 0, { oauth: { expiresIn: 30 } })
t.teardown(async () => { await Promise.all([coded.close(), machine.close(), short.close()]) })

const base = { transport: 'streamable_http', timeout: 10, auto_connect: false, auto_reconnect: false }
const s: McpStarted = await startMcp(t, {
  coded: { ...base, url: coded.url, auth: 'oauth' },
  machine: { ...base, url: machine.url, auth: { type: 'oauth', grant: 'client_credentials', client_id: 'agentd-ci', client_secret: '${CC_SECRET}' } },
  short: { ...base, url: short.url, auth: 'oauth' },
}, { env: { CC_SECRET: SECRET }, mcpOptions: { ping_interval_seconds: 0 }, logLevel: 'debug' })

const source = (): { callTool: (n: string, a: Record<string, unknown>) => Promise<{ content: string, isError: boolean }> } => s.kernel.current!.app.registry.toolSources.get('mcp')
type Connect = { status: string, authorization_url?: string, tools_count: number, error?: string }
const connect = async (server: string): Promise<Connect> => await (await s.post('/api/mcp/connect', { server })).json() as Connect

/** Opens the authorization URL as a browser would: the fake approves and redirects to agentd's callback. */
async function approve (authorizationUrl: string): Promise<Response> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' })
  const location = res.headers.get('location')
  if (location === null) throw new Error(`the authorization server answered ${res.status} without a redirect`)
  return await fetch(location)
}

async function authorize (name: string, fx: FixtureServer): Promise<void> {
  const r = await connect(name)
  if (r.status !== 'needs_auth' || r.authorization_url === undefined) throw new Error(`expected needs_auth, got ${JSON.stringify(r)}`)
  const cb = await approve(r.authorization_url)
  if (!cb.ok) throw new Error(`callback answered ${cb.status}: ${await cb.text()}`)
  await s.waitFor(name, isConnected, 'connected')
  if (fx.authority === undefined) throw new Error('fixture without an authority')
}

let firstAuthorization = ''

t.test('connect answers needs_auth with the authorization URL; the callback finishes the flow and the server connects', async t => {
  const r = await connect('coded')
  t.equal(r.status, 'needs_auth')
  const authUrl = new URL(r.authorization_url ?? '')
  t.equal(authUrl.origin, new URL(coded.url).origin, 'the authorization server found through the metadata')
  t.equal(authUrl.searchParams.get('code_challenge_method'), 'S256', 'PKCE')
  t.equal(authUrl.searchParams.get('redirect_uri'), `${s.url}/api/mcp/oauth/callback`, "agentd's own callback, on the origin it was reached at")
  t.equal(authUrl.searchParams.get('resource'), coded.url, 'the resource indicator (RFC 8707)')
  const row = await s.server('coded')
  t.same(row?.status, 'needs_auth')
  firstAuthorization = r.authorization_url ?? ''
  const cb = await approve(firstAuthorization)
  t.equal(cb.status, 200)
  t.match(cb.headers.get('content-type'), /text\/html/)
  t.match(await cb.text(), /authorized for tool server <b>coded<\/b>, which is connected/)
  const up = await s.waitFor('coded', isConnected, 'connected')
  t.equal(up.tools_count, 5, 'the tools of the fixture are listed')
  t.match(await source().callTool('coded__greet', { name: 'Ada' }), { content: 'Hello, Ada! (from coded)', isError: false })
  t.same(coded.authority?.grants, ['authorization_code'])
})

t.test('the callback refuses a state agentd never issued, and one already used', async t => {
  const res = await s.json('/api/mcp/oauth/callback?state=forged&code=x')
  t.equal(res.status, 400)
  t.equal(res.body.code, 'AGENT_ERR_MCP_OAUTH_STATE')
  const replay = await approve(firstAuthorization)
  t.equal(replay.status, 400, 'the state of a finished authorization is spent')
  t.match(await replay.json(), { code: 'AGENT_ERR_MCP_OAUTH_STATE' })
})

t.test('tokens are stored under the data folder, 0600 in a 0700 folder, and no answer shows one', async t => {
  const dir = path.join(s.ws.dataDir, 'mcp-oauth')
  t.equal(statSync(dir).mode & 0o777, 0o700)
  t.ok(readdirSync(dir).includes('coded.json'))
  t.equal(statSync(path.join(dir, 'coded.json')).mode & 0o777, 0o600)
  const stored = JSON.parse(readFileSync(path.join(dir, 'coded.json'), 'utf8')) as { tokens?: { access_token?: string, refresh_token?: string } }
  t.ok(stored.tokens?.refresh_token, 'the refresh token is kept')
  const answers = await Promise.all(['/api/mcp/servers', '/api/mcp/tools', '/api/mcp/resources'].map(async p => await (await s.get(p)).text()))
  for (const tok of coded.authority?.issued ?? []) for (const a of answers) t.notOk(a.includes(tok), 'no access token in an answer')
  t.notOk(answers.some(a => a.includes(stored.tokens?.refresh_token ?? '-')), 'no refresh token in an answer')
  const row = await s.server('coded') as unknown as { auth: unknown }
  t.same(row.auth, { type: 'oauth', authorized: true })
})

t.test('a 401 on a call (access tokens revoked) is answered by a refresh; the tool list stays', async t => {
  coded.authority?.revokeAccess()
  t.match(await source().callTool('coded__add', { a: 2, b: 40 }), { content: '42', isError: false })
  t.same(coded.authority?.grants, ['authorization_code', 'refresh_token'], 'refreshed, no new authorization')
  const row = await s.server('coded')
  t.equal(row?.status, 'connected')
  t.equal(row?.tools_count, 5)
})

t.test('a token that expires within a minute is refreshed before the call, not after a 401', async t => {
  await authorize('short', short)
  t.same(short.authority?.grants, ['authorization_code'])
  t.match(await source().callTool('short__greet', { name: 'Bo' }), { content: 'Hello, Bo! (from short)', isError: false })
  t.same(short.authority?.grants, ['authorization_code', 'refresh_token'], 'expires_in 30 s is inside the refresh margin')
})

t.test('client_credentials with a pre-registered client from ${ENV}: connects with no person involved', async t => {
  const r = await connect('machine')
  t.equal(r.status, 'connected', JSON.stringify(r))
  t.same(machine.authority?.grants, ['client_credentials'])
  t.match(await source().callTool('machine__add', { a: 1, b: 2 }), { content: '3', isError: false })
  const servers = await (await s.get('/api/mcp/servers')).text()
  t.notOk(servers.includes(SECRET), 'the client secret is never shown')
})

t.test('no token and no client secret reaches the log (read at debug level)', async t => {
  const log = s.logText()
  t.ok(log.includes('authorized'), 'the log has the flows in it')
  const tokens = [coded, machine, short].flatMap(fx => fx.authority?.issued ?? [])
  t.ok(tokens.length >= 5)
  t.same(tokens.filter(tok => log.includes(tok)), [], 'no access token')
  t.notOk(log.includes(SECRET), 'no client secret')
  const stored = JSON.parse(readFileSync(path.join(s.ws.dataDir, 'mcp-oauth', 'coded.json'), 'utf8')) as { tokens: { refresh_token: string } }
  t.notOk(log.includes(stored.tokens.refresh_token), 'no refresh token')
})
