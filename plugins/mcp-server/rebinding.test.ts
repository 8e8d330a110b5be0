// The lists /mcp hands the MCP SDK's DNS-rebinding check, per request: the loopback names
// with the request's port, plus the request's own Host and Origin when the kernel's rules
// (the SDK's trust.ts) accept them, so the two layers never disagree.
import t from 'tap'
import type { IncomingMessage } from 'node:http'
import { rebindingRules } from './rebinding.ts'

const req = (host: string | undefined, origin?: string, method = 'POST'): IncomingMessage =>
  ({ method, headers: { ...(host === undefined ? {} : { host }), ...(origin === undefined ? {} : { origin }) } }) as IncomingMessage

t.test('defaults: loopback on any port; a foreign Host or Origin is left out of the lists', async t => {
  const { guard } = rebindingRules({})
  const fixed = ['localhost:9', '127.0.0.1:9', '[::1]:9']
  t.same(guard(req('evil.example.com', 'http://evil.example.com'), 9), { enableDnsRebindingProtection: true, allowedHosts: fixed, allowedOrigins: ['http://localhost:9', 'http://127.0.0.1:9', 'http://[::1]:9'] })
  t.ok(guard(req('localhost:4000'), 9).allowedHosts.includes('localhost:4000'), 'a loopback name on another port (a forwarded port)')
  t.ok(guard(req('127.0.0.1:9', 'https://localhost:5173'), 9).allowedOrigins.includes('https://localhost:5173'))
  t.ok(guard(req('127.0.0.1:9', 'tauri://localhost'), 9).allowedOrigins.includes('tauri://localhost'), 'the desktop app')
  t.notOk(guard(req('127.0.0.1:9', 'http://localhost.evil.com'), 9).allowedOrigins.includes('http://localhost.evil.com'))
  t.same(guard(req(undefined), 9).allowedHosts, [], 'no Host (HTTP/1.0 from a tool) passes, as in the kernel')
})

t.test('AGENT_ALLOWED_HOSTS, API_HOST and AGENT_CORS_ORIGINS as the kernel reads them; `*` turns a check off', async t => {
  const { guard } = rebindingRules({ AGENT_ALLOWED_HOSTS: 'agent.lan, *.corp.example', API_HOST: '192.168.7.7', AGENT_CORS_ORIGINS: 'https://*.app.example' })
  for (const host of ['agent.lan:9', 'agent.lan', 'a.corp.example', '192.168.7.7:9']) t.ok(guard(req(host), 9).allowedHosts.includes(host), host)
  for (const host of ['corp.example.evil.com', 'evil.lan']) t.notOk(guard(req(host), 9).allowedHosts.includes(host), host)
  t.ok(guard(req('agent.lan:9', 'https://x.app.example'), 9).allowedOrigins.includes('https://x.app.example'))
  t.ok(guard(req('agent.lan:9', 'http://agent.lan:9'), 9).allowedOrigins.includes('http://agent.lan:9'), 'a page of this server under an allowed name')
  t.notOk(guard(req('evil.lan:9', 'http://evil.lan:9'), 9).allowedOrigins.includes('http://evil.lan:9'), 'same-origin counts only for an allowed Host')
  t.same(rebindingRules({ AGENT_ALLOWED_HOSTS: '*' }).guard(req('anything'), 9).allowedHosts, [])
  t.equal(rebindingRules({ AGENT_ALLOWED_HOSTS: '*', AGENT_CORS_ORIGINS: '*' }).guard(req('a', 'http://b'), 9).enableDnsRebindingProtection, false)
})
