// No memory write lost in an outage, on the real PostgreSQL and Redis of this machine.
//
// Stopping those servers would disrupt everything else using them on this machine, so
// the outage is a TCP proxy on loopback between agentd and each of them, cut for 20 s:
// open connections are destroyed and new ones refused, as with a stopped server. During
// steady chat (the fake OpenAI upstream), both proxies are cut; halfway through the
// outage agentd itself is restarted; then the proxies are restored. Every turn of every
// chat sent meanwhile must be stored afterwards, in order, exactly once.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { Redis } from 'ioredis'
import { startKernel, type Started } from '../helpers/kernel.ts'
import { repoPlugin, Workspace, type PluginSpec } from '../helpers/workspace.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { TcpProxy } from '../helpers/tcp-proxy.ts'
import { pollUntil, until } from '../helpers/poll.ts'
import { fixture } from '../chat/helpers.ts'
import { memoryPlugins } from './memory-kernel.ts'
import { PG_URI, uniqueSchema } from './sql-targets.ts'
import { openSql } from '@agentd/sdk/kits/sql'

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any -- response bodies
const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'
const OUTAGE_MS = 20_000
const CHAT_EVERY_MS = 40

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? NaN }

t.test('PostgreSQL and Redis cut for 20 s during steady chat, agentd restarted meanwhile: every turn stored, in order, once', async t => {
  const pgUrl = new URL(PG_URI)
  const redisUrl = new URL(REDIS_URI)
  const [pgProxy, redisProxy] = await Promise.all([
    TcpProxy.start({ host: pgUrl.hostname, port: Number(pgUrl.port === '' ? 5432 : pgUrl.port) }),
    TcpProxy.start({ host: redisUrl.hostname, port: Number(redisUrl.port === '' ? 6379 : redisUrl.port) }),
  ])
  t.teardown(async () => { await Promise.all([pgProxy.close(), redisProxy.close()]) })
  const schema = uniqueSchema()
  const namespace = `agentd-outage-${randomBytes(6).toString('hex')}:`
  t.teardown(async () => {
    const h = await openSql({ backend: 'postgres', uri: PG_URI, schema: 'public', poolSize: 1, connectTimeoutMs: 3000 }, { warn: () => {} })
    await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(h.db).catch(() => {})
    await h.close()
    const r = new Redis(REDIS_URI)
    const keys = await r.keys(`${namespace}*`)
    if (keys.length > 0) await r.del(...keys)
    r.disconnect()
  })

  const fake = await startFakeOpenAI(t)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  const proxied = `postgresql://${pgUrl.username === '' ? 'postgres' : pgUrl.username}@127.0.0.1:${pgProxy.port}${pgUrl.pathname}`
  const plugins: PluginSpec[] = [
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'test-tools', module: fixture('test-tools') },
    { name: 'prompts', module: repoPlugin('prompts') },
    ...memoryPlugins({
      sql: { postgres_uri: proxied, schema, connect_timeout_ms: 1000, circuit_cooldown_ms: 1000 },
      kv: { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: `redis://127.0.0.1:${redisProxy.port}`, namespace, connect_timeout_ms: 500 } },
      memory: { outbox_max_retry_ms: 500 },
    }),
    { name: 'chat', module: repoPlugin('chat') },
  ]
  const env = { OPENAI_API_KEY: 'test-key', DEFAULT_MODEL: 'gpt-4o-mini' }
  let s: Started = await startKernel(t, { ws, plugins, env, logLevel: 'warn' })
  const logs = [s.logs]

  const sessionId = '5a1d6c0e-0000-4000-8000-000000000001'
  const sent: string[] = []
  const latency: Record<'before' | 'outage' | 'after', number[]> = { before: [], outage: [], after: [] }
  let phase: keyof typeof latency = 'before'
  let n = 0
  const chat = async (): Promise<void> => {
    const message = `message number ${++n}`
    const t0 = performance.now()
    const res = await s.post('/api/agent/chat', { message, session_id: sessionId, channel: 'outage', use_memory: true })
    latency[phase].push(performance.now() - t0)
    t.equal(res.status, 200, `${message}: the chat answers (${phase})`)
    sent.push(message)
  }
  /**
   * Steady chat until `ms` have passed: one chat every CHAT_EVERY_MS (or back to back when
   * one takes longer), a busy user's pace. Flat out it was ~100 chats/s of CPU for the whole
   * outage, which tested nothing more and cost the suite half a minute of both cores.
   */
  const chatFor = async (ms: number): Promise<void> => {
    const end = Date.now() + ms
    while (Date.now() < end) {
      const next = Date.now() + CHAT_EVERY_MS
      await chat()
      await sleep(Math.max(0, Math.min(next, end) - Date.now()))
    }
  }
  const health = async (): Promise<Json> => (await s.json('/api/health?include_memory=true')).body.memory

  await chatFor(2000)
  phase = 'outage'
  const outageStart = Date.now()
  await Promise.all([pgProxy.cut(), redisProxy.cut()])
  await chatFor(OUTAGE_MS / 2 - 2000)
  // Every turn sent so far is either stored or waiting in the outbox before agentd stops.
  const storedBefore = 2 * sent.length
  const h1 = await pollUntil(health, h => h.outbox.pending > 0)
  t.match(h1, { postgres: { status: 'unhealthy' }, outbox: { status: 'waiting' } }, 'health shows the store down and the backlog')
  await s.kernel.close()
  s = await startKernel(t, { ws, plugins, env, logLevel: 'warn' })
  logs.push(s.logs)
  const h2 = await health()
  t.ok(h2.outbox.pending > 0, `the backlog survived the restart (${h2.outbox.pending as number} writes)`)
  await chatFor(Math.max(0, outageStart + OUTAGE_MS - Date.now()))
  phase = 'after'
  await Promise.all([pgProxy.restore(), redisProxy.restore()])
  await chatFor(2000)

  await until('the outbox to drain', async () => (await health()).outbox.pending === 0, 60_000)
  const turns = (await s.json(`/api/memory/conversations/${sessionId}/turns?limit=10000`)).body.turns as Json[]
  const expected = sent.flatMap(m => [['user', m], ['assistant', `echo: ${m}`]])
  t.equal(turns.length, expected.length, `${expected.length} turns sent, ${turns.length} stored (${storedBefore} of them sent before the restart)`)
  t.same(turns.map(x => [x.role, x.content]), expected, 'every turn stored, in the order it was said, once')
  t.same(turns.map(x => x.index), turns.map((_x, i) => i), 'indexes follow the order')
  t.ok(turns.every((x, i) => i === 0 || Date.parse(x.timestamp) >= Date.parse(turns[i - 1].timestamp)), 'each turn keeps the time it was said')

  // Logged once per outage as a warning, not an error per request.
  const lines = logs.flat()
  t.same(lines.filter(l => l.level >= 50).map(l => l.msg), [], 'no error lines')
  t.ok(lines.filter(l => /relational store .* is unavailable/.test(l.msg)).length <= 2, 'the outage warned once (per process)')

  // Chats stay as fast: reported as numbers; a loose ratio only catches a chat that waits on the store.
  const m = { before: median(latency.before), outage: median(latency.outage), after: median(latency.after) }
  t.comment(`chat latency median ms: before ${m.before.toFixed(1)}, outage ${m.outage.toFixed(1)}, after ${m.after.toFixed(1)}; chats ${sent.length}`)
  t.ok(m.outage < Math.max(5 * m.before, m.before + 200), 'chats during the outage are not held up by the store')
})
