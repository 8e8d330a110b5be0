// AGENT_ALLOWED_HOSTS: the names served besides loopback and the bound address; the check
// runs before any generation, the early one (plugins still loading) included.
import t from 'tap'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { Kernel } from '../../core/kernel.ts'
import { startKernel, testEnv } from '../helpers/kernel.ts'
import { fixturePlugin, repoPlugin, Workspace } from '../helpers/workspace.ts'
import { raw } from './agentd.ts'

const plugins = [{ name: 'tools-builtin', module: repoPlugin('tools-builtin') }, { name: 'tools-api', module: repoPlugin('tools-api') }]
const portOf = (url: string): number => Number(new URL(url).port)

t.test('names in AGENT_ALLOWED_HOSTS are served, *.suffix covers subdomains only, others get 403', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_ALLOWED_HOSTS: 'agentd.lan, *.example.org' } })
  const port = portOf(s.url)
  const cases: Array<[string, number]> = [['agentd.lan', 200], ['AGENTD.LAN', 200], ['a.example.org', 200], ['b.c.example.org', 200], ['example.org', 403], ['evil-example.org', 403], ['agentd.lan.evil.test', 403], ['localhost', 200]]
  for (const [host, status] of cases) t.equal((await raw(port, 'GET', '/api/tools', { host: `${host}:${port}` })).status, status, host)
})

t.test('AGENT_ALLOWED_HOSTS=* turns the Host check off (for a proxy that checks Host itself)', async t => {
  const s = await startKernel(t, { plugins, env: { AGENT_ALLOWED_HOSTS: '*' } })
  const port = portOf(s.url)
  t.equal((await raw(port, 'GET', '/api/tools', { host: 'anything.example' })).status, 200)
  const post = await raw(port, 'POST', '/api/tools/call', { host: 'anything.example', origin: 'https://evil.example', 'content-type': 'text/plain' }, '{}')
  t.equal(post.status, 403, 'the Origin check still holds')
})

t.test('a malformed entry refuses to start, saying how to write it', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  t.throws(() => new Kernel({ cwd: ws.dir, env: testEnv(ws, { AGENT_ALLOWED_HOSTS: 'https://agentd.lan:8080' }), watch: false }), /AGENT_ALLOWED_HOSTS: "https:\/\/agentd\.lan:8080" is not a host name/)
})

t.test('while the plugins load (the early generation), a foreign Host is refused too', async t => {
  const ws = new Workspace()
  ws.writePlugins([{ name: 'probe', module: fixturePlugin('probe'), options: { init_delay_ms: 800 } }])
  const kernel = new Kernel({ cwd: ws.dir, env: testEnv(ws), watch: false })
  t.teardown(async () => { await kernel.close(); ws.remove() })
  const started = kernel.start()
  await once(kernel.server, 'listening')
  const port = (kernel.server.address() as AddressInfo).port
  const early = await raw(port, 'GET', '/api/index', { host: `attacker.example:${port}` })
  t.equal(early.status, 403)
  t.equal(kernel.api.generation(), 0, 'asked before the plugins were in')
  t.equal((await raw(port, 'GET', '/api/index')).status, 200, 'the loopback name is served meanwhile')
  await started
})

t.test('binding a non-loopback address warns to set AGENT_ALLOWED_HOSTS and an API key; the bound address is served', async t => {
  const s = await startKernel(t, { plugins, env: { API_HOST: '0.0.0.0' }, logLevel: 'warn' })
  t.match(s.logText(), /API_HOST is 0\.0\.0\.0, not a loopback address[^\n]*AGENT_ALLOWED_HOSTS[^\n]*AGENT_API_KEY_REQUIRED/)
  t.equal((await raw(portOf(s.url), 'GET', '/api/tools')).status, 200)
})
