// The lists handed to the MCP SDK's DNS-rebinding check, per request: the fixed loopback
// names with the request's port, plus the request's own Host/Origin only when the rules accept it.
import t from 'tap'
import { hostName, rebindingRules } from './rebinding.ts'

t.test('host names: port dropped, IPv6 brackets kept, lower case', async t => {
  t.equal(hostName('LocalHost:12319'), 'localhost')
  t.equal(hostName('[::1]:80'), '[::1]')
  t.equal(hostName('example.org'), 'example.org')
})

t.test('defaults: loopback on any port; a foreign Host or Origin is left out of the lists', async t => {
  const { guard } = rebindingRules({})
  const fixed = ['localhost:9', '127.0.0.1:9', '[::1]:9']
  t.same(guard('evil.example.com', 'http://evil.example.com', 9), { enableDnsRebindingProtection: true, allowedHosts: fixed, allowedOrigins: ['http://localhost:9', 'http://127.0.0.1:9', 'http://[::1]:9'] })
  t.ok(guard('localhost:4000', undefined, 9).allowedHosts.includes('localhost:4000'), 'a loopback name on another port (a forwarded port)')
  t.ok(guard('127.0.0.1:9', 'https://localhost:5173', 9).allowedOrigins.includes('https://localhost:5173'))
  t.notOk(guard('127.0.0.1:9', 'http://localhost.evil.com', 9).allowedOrigins.includes('http://localhost.evil.com'))
  t.notOk(guard('evil.example.com', 'http://evil.example.com', 9).allowedOrigins.includes('http://evil.example.com'), 'same-origin counts only for an accepted Host')
})

t.test('AGENT_ALLOWED_HOSTS, API_HOST and AGENT_CORS_ORIGINS; `*` turns a check off', async t => {
  const { guard } = rebindingRules({ AGENT_ALLOWED_HOSTS: 'agent.lan, *.corp.example', API_HOST: '::1', AGENT_CORS_ORIGINS: 'https://*.app.example' })
  for (const host of ['agent.lan:9', 'agent.lan', 'a.corp.example', 'corp.example:443']) t.ok(guard(host, undefined, 9).allowedHosts.includes(host), host)
  t.notOk(guard('corp.example.evil.com', undefined, 9).allowedHosts.includes('corp.example.evil.com'))
  t.ok(guard('x', undefined, 9).allowedHosts.includes('[::1]:9'), 'the bound IPv6 address')
  t.ok(guard('agent.lan:9', 'https://x.app.example', 9).allowedOrigins.includes('https://x.app.example'))
  t.ok(guard('agent.lan:9', 'http://agent.lan:9', 9).allowedOrigins.includes('http://agent.lan:9'), 'a page of this server under an allowed name')
  t.same(rebindingRules({ AGENT_ALLOWED_HOSTS: '*' }).guard('anything', 'http://evil.example.com', 9).allowedHosts, [])
  t.equal(rebindingRules({ AGENT_ALLOWED_HOSTS: '*', AGENT_CORS_ORIGINS: '*' }).guard('a', 'http://b', 9).enableDnsRebindingProtection, false)
})
