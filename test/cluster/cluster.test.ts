// agentd as a cluster: two processes on two ports sharing one PostgreSQL (a schema of this
// test's own) and one Redis (a namespace of its own) behave as one service. A job every
// 3 s runs exactly once per slot across both for half a minute; a chat session started on one
// continues on the other; the rate limit counts across both; GET /api/jobs shows both workers.
// The one long test of the suite (half a minute of schedule), by design: 11 slots, each asked
// for by both processes, are enough to see a slot run twice or not at all. The
// slot stays 3 s: its asks at 10% and 60% leave a process 1.5 s of lateness on a busy machine.
// (It was a minute, 21 slots: twice the wait for the same checks.)
import t from 'tap'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { Redis } from 'ioredis'
import { Workspace, repoPlugin, fixturePlugin } from '../helpers/workspace.ts'
import { pollUntil } from '../helpers/poll.ts'
import { spawnAgentd, type AgentdProcess } from '../helpers/agentd-process.ts'
import { startFakeOpenAI } from '../fakes/openai-upstream.ts'
import { PG_URI, dropSchemas, uniqueSchema } from '../../plugins/jobs/test-support.ts'

t.setTimeout(300_000)
const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'
const MODEL = 'gpt-4o-mini'
const EVERY = 3
/** How long the schedule is watched: from the first slot's run to the last's. */
const WATCH_MS = 30_000

t.test('two processes on one PostgreSQL and one Redis behave as one service', async t => {
  const schema = uniqueSchema()
  const namespace = `agentd-cluster-${randomBytes(4).toString('hex')}:`
  const redis = new Redis(REDIS_URI)
  t.teardown(async () => {
    const keys = await redis.keys(`${namespace}*`)
    if (keys.length > 0) await redis.del(...keys)
    await redis.quit()
  })
  const fake = await startFakeOpenAI(t)
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  ws.writePlugins([
    { name: 'test-jobs', module: fixturePlugin('test-jobs'), options: { jobs: [{ name: 'tick', schedule: { every_seconds: EVERY } }] } },
    { name: 'jobs', module: repoPlugin('jobs'), options: { backend: 'postgres', postgres_uri: PG_URI, schema, poll_seconds: 0.5, worker_heartbeat_seconds: 2 } },
    { name: 'openai', module: repoPlugin('provider-openai-compatible'), options: { base_url: fake.url, max_retries: 0 } },
    { name: 'providers-api', module: repoPlugin('providers-api') },
    { name: 'memory-redis', module: repoPlugin('memory-redis'), options: { uri: REDIS_URI, namespace: `${namespace}kv:` } },
    { name: 'prompts', module: repoPlugin('prompts') },
    { name: 'chat', module: repoPlugin('chat') },
  ])
  const env = {
    OPENAI_API_KEY: 'k', DEFAULT_MODEL: MODEL, REDIS_URI,
    AGENT_RATE_LIMIT_ENABLED: 'true', AGENT_RATE_LIMIT: '100000/m', AGENT_RATE_LIMIT_NAMESPACE: `${namespace}rl:`,
  }
  const [a, b] = await Promise.all([
    spawnAgentd(t, ws, { ...env, AGENT_DATA_DIR: `${ws.dir}/data-a` }),
    spawnAgentd(t, ws, { ...env, AGENT_DATA_DIR: `${ws.dir}/data-b` }),
  ])
  const json = async (p: AgentdProcess, path: string, init?: RequestInit): Promise<{ status: number, headers: Headers, body: any }> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await fetch(p.url + path, init)
    return { status: res.status, headers: res.headers, body: await res.json() }
  }
  const chat = async (p: AgentdProcess, body: unknown): Promise<Record<string, unknown>> => {
    const r = await json(p, '/api/agent/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    t.equal(r.status, 200, JSON.stringify(r.body))
    return r.body
  }

  const seen = await pollUntil(async () => (await json(a, '/api/jobs')).body, body => body.workers?.length === 2, 30_000, 250)
  if (seen.workers?.length !== 2) t.comment(`process A:\n${a.output()}\nprocess B:\n${b.output()}`)
  t.equal(seen.workers.length, 2, 'GET /api/jobs on one process shows both workers')
  t.equal(seen.workers.filter((w: { this_process: boolean }) => w.this_process).length, 1)
  t.equal((await json(b, '/api/jobs')).body.workers.length, 2, 'and on the other')

  // Rate limit: requests to A and B in turn take one shared allowance down step by step.
  const remaining: number[] = []
  for (const p of [a, b, a, b]) remaining.push(Number((await fetch(`${p.url}/api/jobs`)).headers.get('x-ratelimit-remaining')))
  t.ok(remaining.every((r, i) => i === 0 || r < remaining[i - 1]), `one allowance across both processes: ${remaining.join(' > ')}`)

  // A session started on A continues on B.
  fake.enqueue({ text: 'Noted: blue.' }, { text: 'Blue.' })
  const r1 = await chat(a, { message: 'My favourite colour is blue.', use_memory: false })
  await chat(b, { message: 'What is my favourite colour?', session_id: r1.session_id, use_memory: false })
  const sent = fake.completions[1].body.messages as Array<{ content: string }>
  t.same(sent.slice(1).map(m => m.content), ['My favourite colour is blue.', 'Noted: blue.', 'What is my favourite colour?'], 'B saw the turns A had')

  // The schedule: half a minute of slots, each run once, by whichever process got there first.
  const db = new pg.Client({ connectionString: PG_URI })
  await db.connect()
  t.teardown(async () => { await db.end() })
  const runs = async (): Promise<Array<{ slot: Date, worker: string, success: boolean }>> =>
    (await db.query(`SELECT slot, worker, success FROM "${schema}".agentd_job_runs WHERE name = 'tick' AND trigger = 'schedule' ORDER BY slot`)).rows
  const all = await pollUntil(runs, rows => rows.length > 1 && rows.at(-1)!.slot.getTime() - rows[0].slot.getTime() >= WATCH_MS, 120_000, 500)
  const slots = all.map(r => r.slot.getTime())
  t.equal(new Set(slots).size, slots.length, `no slot ran twice (${slots.length} runs)`)
  const expected = (slots.at(-1)! - slots[0]) / (EVERY * 1000) + 1
  t.equal(slots.length, expected, 'no slot was skipped')
  t.ok(all.every(r => r.success !== false), 'every run succeeded')
  const byWorker = new Map<string, number>()
  for (const r of all) byWorker.set(r.worker, (byWorker.get(r.worker) ?? 0) + 1)
  t.comment(`runs per worker: ${[...byWorker.values()].join(', ')}`)

  await Promise.all([a.stop(), b.stop()])
  await dropSchemas(schema)
})
