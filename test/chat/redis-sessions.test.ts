// Sessions in the real Redis key-value store (memory-redis) survive a restart.
import t from 'tap'
import { redisNamespace, REDIS_URI as REDIS } from '../helpers/redis.ts'
import { Kernel } from '../../core/kernel.ts'
import { testEnv } from '../helpers/kernel.ts'
import { repoPlugin, Workspace } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { fixture, MODEL, until } from './helpers.ts'


t.test('a session stored in Redis is there after the server restarts', async t => {
  const { redis, namespace } = await redisNamespace(t, 'agentd-test-chat')
  const fake = await startFakeOpenAI(t)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: REDIS, namespace } },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'chat', module: repoPlugin('chat') },
  ])
  const env = testEnv(ws, { OPENAI_API_KEY: 'k', DEFAULT_MODEL: MODEL })
  const post = async (port: number, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`http://127.0.0.1:${port}/api/agent/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    t.equal(res.status, 200)
    return await res.json() as Record<string, unknown>
  }

  // memory-redis fails commands fast while it connects (no offline queue): wait until it is up,
  // or the chat would (correctly) fall back to the in-process session store.
  const redisReady = async (k: Kernel): Promise<void> => {
    const kv = k.current!.app.registry.kvStores.first()!
    await until('Redis to be connected', async () => (await kv.health()).status === 'healthy')
  }
  fake.enqueue({ text: 'Noted: blue.' }, { text: 'Blue.' })
  const first = new Kernel({ cwd: ws.dir, env, watch: false })
  const a = await first.start()
  await redisReady(first)
  const r1 = await post(a.port, { message: 'My favourite colour is blue.', use_memory: false })
  await first.close()
  t.ok(await redis.exists(`${namespace}chat:session:${String(r1.session_id)}`), 'the session is a Redis key')

  const second = new Kernel({ cwd: ws.dir, env, watch: false })
  t.teardown(async () => { await second.close() })
  const b = await second.start()
  await redisReady(second)
  await post(b.port, { message: 'What is my favourite colour?', session_id: r1.session_id, use_memory: false })
  const sent = fake.completions[1].body.messages as Array<{ content: string }>
  t.same(sent.slice(1).map(m => m.content), ['My favourite colour is blue.', 'Noted: blue.', 'What is my favourite colour?'])
})
