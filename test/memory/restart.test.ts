// Sessions and the key-value store's TTLs survive a restart on embedded defaults: memory-kv writes
// behind to the embedded PGlite under AGENT_DATA_DIR, and the next start loads it. The
// same workspace (data folder) is started twice with the real kernel, the real memory
// plugins and the fake OpenAI upstream.
import t from 'tap'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { fixture } from '../chat/helpers.ts'
import { memoryPlugins } from './memory-kernel.ts'
import type { LocalKvStore } from '../../plugins/memory-kv/local-store.ts'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- request bodies

t.test('a session survives a restart, its TTL kept', async t => {
  const fake = await startFakeOpenAI(t)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  const plugins: PluginSpec[] = [
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'prompts', module: repoPlugin('prompts') },
    ...memoryPlugins(),
    { name: 'chat', module: repoPlugin('chat') },
  ]
  const env = { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: 'gpt-4o-mini' }
  const kv = (s: { kernel: { current?: { app: { registry: { kvStores: { first: () => unknown } } } } } }): LocalKvStore => s.kernel.current?.app.registry.kvStores.first() as LocalKvStore

  const first = await startKernel(t, { ws, plugins, env })
  fake.enqueue({ text: 'Nice to meet you, Ada.' })
  const r1 = await first.post('/api/agent/chat', { message: 'My name is Ada.', channel: 'home' })
  t.equal(r1.status, 200)
  const sessionId = (await r1.json() as Json).session_id as string
  // The chat session lives in the key-value store (saved before the answer went out).
  const sessionKey = `chat:session:${sessionId}`
  const { pollUntil } = await import('../helpers/poll.ts')
  const before = kv(first).peek(sessionKey)
  t.equal((before?.value as { messages?: unknown[] } | undefined)?.messages?.length, 2, 'the user turn and the answer')
  t.ok(before?.expiresAt !== undefined, 'the session has a TTL')
  // A key of its own with a short TTL, to see it expire after the restart.
  await kv(first).set('test:short', { v: 1 }, { ttlSeconds: 10 })
  const shortBefore = kv(first).peek('test:short')
  await first.kernel.close()

  const second = await startKernel(t, { ws, plugins, env })
  t.same(kv(second).peek(sessionKey), before, 'the session is back with the same messages and the same expiry time')
  t.same(kv(second).peek('test:short')?.expiresAt, shortBefore?.expiresAt, 'a TTL is an absolute time: kept across the restart')
  fake.enqueue({ text: 'You are Ada.' })
  const r2 = await second.post('/api/agent/chat', { message: 'What is my name?', session_id: sessionId, channel: 'home' })
  t.equal(r2.status, 200)
  const messages = fake.completions.at(-1)?.body.messages as Json[]
  t.same(messages.filter(m => m.role !== 'system').map(m => [m.role, m.content]), [
    ['user', 'My name is Ada.'], ['assistant', 'Nice to meet you, Ada.'], ['user', 'What is my name?'],
  ], 'the session history from before the restart is replayed to the model')
  // The TTL still holds after the restart: the short key goes once its time is up.
  const gone = await pollUntil(async () => await kv(second).get('test:short'), v => v === undefined, 40_000, 200)
  t.equal(gone, undefined, 'the key expired')
  t.ok(Date.now() >= (shortBefore?.expiresAt ?? Infinity), 'not before its time')
})
