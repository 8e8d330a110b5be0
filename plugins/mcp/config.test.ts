import t from 'tap'
import { parseServersFile, resolveServer, ConfigFileError } from './config.ts'

const env = { TOKEN: 'tok-1234', HOST: '127.0.0.1' }

t.test('defaults and transport inference', async t => {
  const s = resolveServer('a', { command: 'node', args: ['x.js'] }, env, '/base')
  t.match(s.config, { transport: 'stdio', timeoutMs: 30_000, autoReconnect: true, enabled: true, autoConnect: true, env: {}, headers: {} })
  t.equal(resolveServer('b', { url: 'http://h/mcp' }, env, '/base').config?.transport, 'http')
  t.equal(resolveServer('c', { transport: 'sse', url: 'http://h/sse' }, env, '/base').config?.transport, 'sse')
})

t.test('${VAR} is resolved in env, headers and url; the values are secrets', async t => {
  const s = resolveServer('a', { url: 'http://${HOST}:9/mcp?k=${TOKEN}', headers: { Authorization: 'Bearer ${TOKEN}' }, env: { X: '${TOKEN}' } }, env, '/b')
  t.equal(s.config?.url, 'http://127.0.0.1:9/mcp?k=tok-1234')
  t.equal(s.config?.headers.Authorization, 'Bearer tok-1234')
  t.equal(s.config?.env.X, 'tok-1234')
  t.ok(s.config?.secrets.includes('tok-1234'))
  t.ok(s.config?.secrets.includes('Bearer tok-1234'))
})

t.test('an unset variable is a clear per-server error, not an empty string', async t => {
  const s = resolveServer('a', { command: 'x', env: { K: '${NOPE}' } }, env, '/b')
  t.equal(s.config, undefined)
  t.match(s.error, /servers\.a: environment variable\(s\) \$\{NOPE\} not set/)
})

t.test('bad entries say which field and how to fix it', async t => {
  t.match(resolveServer('a', {}, env, '/b').error, /give "command".*or "url"/)
  t.match(resolveServer('a', { transport: 'stdio', url: 'http://x' }, env, '/b').error, /servers\.a\.command is required/)
  t.match(resolveServer('a', { command: 'x', bogus: 1 }, env, '/b').error, /servers\.a.*unknown key\(s\): bogus/)
  t.match(resolveServer('a', { command: 'x', timeout: -1 }, env, '/b').error, /servers\.a\.timeout/)
  t.match(resolveServer('a', { url: 'ftp://x' }, env, '/b').error, /must be http/)
  t.match(resolveServer('a b', { command: 'x' }, env, '/b').error, /server name may use/)
  t.match(resolveServer('a', { command: 'x', name: 'b' }, env, '/b').error, /name is "b" but the entry's key is "a"/)
})

t.test('one bad entry never stops the others; a bad file throws', async t => {
  const c = parseServersFile(JSON.stringify({ servers: { ok: { command: 'x' }, bad: { transport: 'nope' } } }), '/f.json', env)
  t.ok(c.servers.get('ok')?.config)
  t.ok(c.servers.get('bad')?.error)
  t.throws(() => parseServersFile('{', '/f.json', env), ConfigFileError)
  t.throws(() => parseServersFile('{"servers": [], "x": 1}', '/f.json', env), /invalid/)
  t.equal(parseServersFile('', '/f.json', env).servers.size, 0)
})

t.test('the fingerprint changes with the entry and only then', async t => {
  const a = resolveServer('a', { command: 'x', args: ['1'] }, env, '/b')
  t.equal(resolveServer('a', { args: ['1'], command: 'x' }, env, '/b').fingerprint, a.fingerprint)
  t.not(resolveServer('a', { command: 'x', args: ['2'] }, env, '/b').fingerprint, a.fingerprint)
})

t.test('the example file in this folder is valid', async t => {
  const { readFileSync } = await import('node:fs')
  const file = new URL('./mcp_servers.example.json', import.meta.url).pathname
  const c = parseServersFile(readFileSync(file, 'utf8'), '/repo/mcp_servers.json', { EXAMPLE_TOKEN: 'x', REMOTE_MCP_TOKEN: 'y' })
  t.same([...c.servers.values()].map(s => s.error), [undefined, undefined, undefined, undefined])
  t.equal(c.servers.get('remote')?.config?.enabled, false)
})

t.test('a disabled entry is not resolved: an unset variable is no error until it is enabled', async t => {
  const raw = { url: 'http://h/mcp', headers: { Authorization: 'Bearer ${NOPE}' } }
  const off = resolveServer('a', { ...raw, enabled: false }, env, '/b')
  t.equal(off.error, undefined)
  t.equal(off.enabled, false)
  t.same(off.config?.secrets, [])
  t.match(resolveServer('a', raw, env, '/b'), { enabled: true, error: /\$\{NOPE\} not set/ })
  t.equal(resolveServer('a', { transport: 'nope', enabled: false }, env, '/b').enabled, false, 'read even from an invalid entry')
  t.not(resolveServer('a', { ...raw, enabled: false, timeout: 5 }, env, '/b').fingerprint, off.fingerprint, 'an edit of a disabled entry still changes it')
})

t.test('auth "oauth": the short form, the full form with ${VAR} secrets, and what it cannot be', async t => {
  t.same(resolveServer('a', { url: 'http://h/mcp', auth: 'oauth' }, env, '/b').config?.oauth, { grant: 'authorization_code', clientId: undefined, clientSecret: undefined, scope: undefined, clientMetadataUrl: undefined })
  const full = resolveServer('a', { url: 'http://h/mcp', auth: { type: 'oauth', grant: 'client_credentials', client_id: 'ci', client_secret: '${TOKEN}', scopes: ['read', 'write'] } }, env, '/b')
  t.match(full.config?.oauth, { grant: 'client_credentials', clientId: 'ci', clientSecret: 'tok-1234', scope: 'read write' })
  t.ok(full.config?.secrets.includes('tok-1234'), 'the client secret is redacted like any secret')
  t.match(resolveServer('a', { command: 'x', auth: 'oauth' }, env, '/b').error, /servers\.a\.auth applies to HTTP servers only/)
  t.match(resolveServer('a', { url: 'http://h/mcp', auth: { type: 'oauth', grant: 'client_credentials', client_id: 'ci' } }, env, '/b').error, /needs "client_id" and "client_secret"/)
  t.match(resolveServer('a', { url: 'http://h/mcp', auth: { type: 'oauth', client_secret: '${NOPE}' } }, env, '/b').error, /\$\{NOPE\} not set/)
  t.ok(resolveServer('a', { url: 'http://h/mcp', auth: 'basic' }, env, '/b').error, 'only oauth is known')
})
