// A2A behind the API key: the card (public, it hands out no data) announces the key's
// scheme; the JSON-RPC route refuses a call without the key (the kernel's check, as on
// every route) and serves the SDK's client that sends it; a foreign Host is refused
// before A2A sees the request.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Role, TaskState, type Message } from '@a2a-js/sdk'
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client'
import { startWithFake } from '../chat/helpers.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { raw } from '../security/agentd.ts'

const KEY = 'a2a-test-key-0123456789'
const { s, fake } = await startWithFake(t, { last: { name: 'a2a', module: repoPlugin('a2a') }, env: { AGENT_API_KEY_REQUIRED: 'true', AGENT_API_KEY: KEY } })

const hello: Message = {
  messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, metadata: undefined, extensions: [], referenceTaskIds: [],
  parts: [{ content: { $case: 'text', value: 'Hello?' }, mediaType: 'text/plain', filename: '', metadata: undefined }],
}

t.test('the card is served without the key and announces the X-API-Key scheme', async t => {
  const res = await s.get('/.well-known/agent-card.json')
  t.equal(res.status, 200)
  const card = await res.json() as { securitySchemes?: Record<string, unknown>, securityRequirements?: unknown[] }
  t.match(card.securitySchemes?.apiKey, { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } })
  t.equal(card.securityRequirements?.length, 1)
})

t.test('JSON-RPC without the key is 401; the SDK\'s client sending it gets its answer', async t => {
  const res = await s.post('/a2a', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: randomUUID() } }, { headers: { 'a2a-version': '1.0' } })
  t.equal(res.status, 401)
  const withKey: typeof fetch = async (input, init) => await fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), 'x-api-key': KEY } })
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })] }))
  const client = await factory.createFromUrl(s.url)
  fake.enqueue({ text: 'Hi.' })
  const task = await client.sendMessage({ tenant: '', message: hello, configuration: undefined, metadata: undefined })
  t.equal('status' in task ? task.status?.state : undefined, TaskState.TASK_STATE_COMPLETED)
})

t.test('a foreign Host or a cross-site Origin is refused by the kernel before A2A sees it', async t => {
  const port = Number(new URL(s.url).port)
  t.equal((await raw(port, 'GET', '/.well-known/agent-card.json', { host: 'evil.example' })).status, 403)
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: randomUUID() } })
  t.equal((await raw(port, 'POST', '/a2a', { 'content-type': 'application/json', origin: 'https://evil.example', 'x-api-key': KEY }, body)).status, 403)
})
