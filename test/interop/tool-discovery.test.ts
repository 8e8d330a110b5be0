// Tools for models the catalogue does not know, end to end: agentd's local provider in
// front of a fake Ollama, a fake LM Studio and a server that refuses tools (each a real
// HTTP server on loopback speaking the real endpoints), with the chat plugin offering its
// tools and GET /api/providers/models showing what was learnt.
import t from 'tap'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { repoPlugin, type PluginSpec } from '../helpers/workspace.ts'
import { fixture, streamChat } from '../chat/helpers.ts'
import { startFakeLmStudio, startFakeOllama, startToolRefusingServer } from '../fakes/local-servers.ts'
import type { FakeOpenAI } from '../fakes/openai-upstream.ts'

const offered = (fake: FakeOpenAI, i: number): boolean => Array.isArray(fake.completions[i].body.tools) && fake.completions[i].body.tools.length > 0

function plugins (extra: PluginSpec[] = []): PluginSpec[] {
  return [
    { name: 'local', module: repoPlugin('provider-openai-compatible'), options: { max_retries: 0 } },
    ...extra,
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'chat', module: repoPlugin('chat') },
  ]
}

async function chat (s: Started, model: string): Promise<{ status: number, body: { response: string, error?: string } }> {
  const res = await s.post('/api/agent/chat', { message: 'hello', model, use_memory: false })
  return { status: res.status, body: await res.json() as { response: string, error?: string } }
}

interface Row { name: string, supports_tools: boolean, known: boolean, learnt?: { supports_tools: boolean, from: string, at: string } }
const models = async (s: Started, provider: string): Promise<Row[]> => (await s.json(`/api/providers/models?provider=${provider}`)).body.models as Row[]

t.test('Ollama: /api/show decides, the chat offers tools only to a model that takes them', async t => {
  const fake = await startFakeOllama(t, [{ name: 'hermes3:8b', capabilities: ['completion', 'tools', 'thinking'] }, { name: 'tinyllama:1.1b', capabilities: ['completion'] }])
  const s = await startKernel(t, { plugins: plugins(), env: { LOCAL_MODEL_URL: fake.url } })
  const a = await chat(s, 'local/hermes3:8b')
  t.equal(a.status, 200)
  t.ok(offered(fake, 0), 'a model with "tools" is offered them')
  const b = await chat(s, 'local/tinyllama:1.1b')
  t.equal(b.status, 200, 'no refusal: the tools were left out before the call')
  t.notOk(offered(fake, 1), 'a model without "tools" is not')
  t.equal(fake.completions.length, 2, 'one call each: nothing refused, nothing retried')
  const rows = await models(s, 'local')
  t.match(rows.find(r => r.name === 'hermes3:8b'), { supports_tools: true, known: false, learnt: { supports_tools: true, from: 'ollama /api/show', at: String } })
  t.match(rows.find(r => r.name === 'tinyllama:1.1b'), { supports_tools: false, learnt: { supports_tools: false, from: 'ollama /api/show' } })
  t.equal(fake.requests.filter(r => r.path === '/api/show').length, 2, 'each model asked once')
})

t.test('models.overrides wins over what the server says, and the server is not asked', async t => {
  const fake = await startFakeOllama(t, [{ name: 'hermes3:8b', capabilities: ['completion', 'tools'] }])
  const s = await startKernel(t, { plugins: plugins(), env: { LOCAL_MODEL_URL: fake.url }, config: { models: { overrides: { 'local/hermes3:8b': { supports_tools: false } } } } })
  t.equal((await chat(s, 'local/hermes3:8b')).status, 200)
  t.notOk(offered(fake, 0))
  t.match((await models(s, 'local')).find(r => r.name === 'hermes3:8b'), { supports_tools: false, learnt: undefined })
  t.equal(fake.requests.filter(r => r.path === '/api/show').length, 0)
})

t.test('LM Studio: /api/v0/models capabilities decide', async t => {
  const fake = await startFakeLmStudio(t, [{ id: 'hermes-3-llama-3.1-8b', capabilities: ['tool_use'] }, { id: 'smollm2-1.7b-instruct', capabilities: [] }])
  const s = await startKernel(t, { plugins: plugins(), config: { providers: { lmstudio: { base_url: fake.url } } } })
  t.equal((await chat(s, 'local/hermes-3-llama-3.1-8b')).status, 200)
  t.ok(offered(fake, 0))
  t.equal((await chat(s, 'local/smollm2-1.7b-instruct')).status, 200)
  t.notOk(offered(fake, 1))
  const rows = await models(s, 'local')
  t.match(rows.find(r => r.name === 'hermes-3-llama-3.1-8b'), { supports_tools: true, learnt: { from: 'lm studio /api/v0/models' } })
  t.match(rows.find(r => r.name === 'smollm2-1.7b-instruct'), { supports_tools: false, learnt: { from: 'lm studio /api/v0/models' } })
})

t.test('a server that refuses tools: the call is retried once without them, and the model is not offered them again', async t => {
  const fake = await startToolRefusingServer(t, ['served-model'])
  const s = await startKernel(t, { plugins: plugins([{ name: 'vllm', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } }]) })
  const first = await chat(s, 'vllm/served-model')
  t.equal(first.status, 200, 'the user gets an answer, not the refusal')
  t.match(first.body.response, /echo: hello/)
  t.same([offered(fake, 0), offered(fake, 1)], [true, false], 'offered, refused, retried without')
  const second = await chat(s, 'vllm/served-model')
  t.equal(second.status, 200)
  t.equal(fake.completions.length, 3, 'remembered: one call, no refusal')
  t.notOk(offered(fake, 2))
  t.match((await models(s, 'vllm')).find(r => r.name === 'served-model'), { supports_tools: false, learnt: { supports_tools: false, from: 'refused tools' } })
})

t.test('a streamed chat is retried without tools too, and what was learnt survives a reload', async t => {
  const fake = await startToolRefusingServer(t, ['served-model'])
  const s = await startKernel(t, { plugins: plugins([{ name: 'vllm', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } }]) })
  const r = await streamChat(s, { message: 'hello', model: 'vllm/served-model', use_memory: false })
  t.equal(r.status, 200)
  t.same(r.events.filter(e => e.event !== ':' && e.event !== 'chunk').map(e => e.event), ['start', 'done'])
  t.match(r.events.filter(e => e.event === 'chunk').map(e => e.data.content).join(''), /echo: hello/)
  t.same([offered(fake, 0), offered(fake, 1)], [true, false])
  const reload = await s.json('/api/plugins/reload', { method: 'POST' })
  t.equal(reload.status, 200)
  t.equal((await chat(s, 'vllm/served-model')).status, 200)
  t.notOk(offered(fake, 2), 'the new generation still knows')
})

t.test('a model the catalogue knows is never asked about', async t => {
  const fake = await startFakeOllama(t, [{ name: 'llama3.2', capabilities: ['completion', 'tools'] }])
  const s = await startKernel(t, { plugins: plugins(), env: { LOCAL_MODEL_URL: fake.url } })
  t.equal((await chat(s, 'local/llama3.2')).status, 200)
  t.ok(offered(fake, 0), 'the catalogue says it takes tools')
  t.equal(fake.requests.filter(r => r.path === '/api/show').length, 0)
})
