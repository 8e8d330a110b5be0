// ToolSupport against fake Ollama and LM Studio servers speaking their native endpoints,
// and against a server that has neither.
import t from 'tap'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ToolSupport, nativeOrigin, refusesTools } from './tool-support.ts'
import { startFakeLmStudio, startFakeOllama, startToolRefusingServer } from '../../test/fakes/local-servers.ts'

const support = (baseUrl: string): ToolSupport => new ToolSupport({ baseUrl, timeoutMs: 2000, probe: true })

t.test('Ollama: POST /api/show capabilities decide, asked once per model', async t => {
  const fake = await startFakeOllama(t, [{ name: 'qwen3:8b', capabilities: ['completion', 'tools', 'thinking'] }, { name: 'gemma2:2b', capabilities: ['completion'] }])
  const ts = support(fake.url)
  t.match(await ts.discover('qwen3:8b'), { supports_tools: true, from: 'ollama /api/show' })
  t.match(await ts.discover('gemma2:2b'), { supports_tools: false, from: 'ollama /api/show' })
  await ts.discover('qwen3:8b')
  const shows = fake.requests.filter(r => r.path === '/api/show')
  t.same(shows.map(r => r.body.model), ['qwen3:8b', 'gemma2:2b'], 'one /api/show per model')
  t.notOk(fake.requests.some(r => r.path === '/api/v0/models'), 'once the server is known to be Ollama, LM Studio is not asked')
})

t.test('Ollama without capabilities (before 0.6.4) or an unknown model cannot tell', async t => {
  const fake = await startFakeOllama(t, [{ name: 'llama3.2' }])
  const ts = support(fake.url)
  t.equal(await ts.discover('llama3.2'), undefined)
  t.equal(await ts.discover('nope:1b'), undefined)
})

t.test('LM Studio: GET /api/v0/models capabilities decide; an entry without them cannot tell', async t => {
  const fake = await startFakeLmStudio(t, [
    { id: 'qwen2.5-7b-instruct', capabilities: ['tool_use'] },
    { id: 'gemma-3-4b-it', capabilities: [] },
    { id: 'old-model' },
  ])
  const ts = support(fake.url)
  t.match(await ts.discover('qwen2.5-7b-instruct'), { supports_tools: true, from: 'lm studio /api/v0/models' })
  t.match(await ts.discover('gemma-3-4b-it'), { supports_tools: false })
  t.equal(await ts.discover('old-model'), undefined)
  t.equal(fake.requests.filter(r => r.path === '/api/show').length, 1, 'Ollama\'s endpoint was tried once, then the server was known')
})

t.test('a server with neither native API is asked once, then tools are offered until it refuses them', async t => {
  const fake = await startToolRefusingServer(t, ['served-model'])
  const ts = support(fake.url)
  t.equal(await ts.discover('served-model'), undefined)
  t.equal(await ts.discover('another'), undefined)
  t.equal(fake.requests.filter(r => r.path.startsWith('/api/')).length, 2, 'two probes for the first model, none after')
  ts.refused('served-model')
  t.match(ts.get('served-model'), { supports_tools: false, from: 'refused tools' })
})

t.test('a server that does not answer is asked again next time', async t => {
  // Drops the first two connections (both probes of the first ask), then answers as Ollama.
  let dropped = 0
  const server = http.createServer((req, res) => {
    if (dropped < 2) { dropped++; res.socket?.destroy(); return }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model_info: {}, capabilities: ['completion', 'tools'] }))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const ts = support(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)
  t.equal(await ts.discover('m'), undefined, 'no answer: nothing learnt')
  t.match(await ts.discover('m'), { supports_tools: true }, 'asked again, and this time it answered')
})

t.test('probe: false never asks the server', async t => {
  const fake = await startFakeOllama(t, [{ name: 'm', capabilities: ['tools'] }])
  const ts = new ToolSupport({ baseUrl: fake.url, timeoutMs: 2000, probe: false })
  t.equal(await ts.discover('m'), undefined)
  t.equal(fake.requests.length, 0)
})

t.test('refusesTools: a 4xx that names tools, nothing else', async t => {
  t.ok(refusesTools({ upstreamStatus: 400, message: 'local: registry.ollama.ai/library/gemma2:2b does not support tools' }))
  t.ok(refusesTools({ upstreamStatus: 400, message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' }))
  t.ok(refusesTools({ upstreamStatus: 404, message: 'No endpoints found that support tool use' }))
  t.notOk(refusesTools({ upstreamStatus: 400, message: 'context length exceeded' }))
  t.notOk(refusesTools({ upstreamStatus: 500, message: 'tools exploded' }), 'a 5xx is not a refusal')
  t.notOk(refusesTools({ upstreamStatus: 401, message: 'bad key for tools' }))
  t.notOk(refusesTools(new Error('does not support tools')), 'no upstream status: not an upstream answer')
  t.equal(nativeOrigin('http://localhost:11434/v1/'), 'http://localhost:11434')
})
