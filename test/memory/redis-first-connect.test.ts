// memory-redis has no offline queue, so commands fail fast while Redis is down. The
// first connection right after start is not an outage: a command issued before it is
// ready waits for it, while a store pointed at a dead port still fails within its
// connect timeout.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import { freePort } from '../helpers/net.ts'
import { RedisKvStore } from '../../plugins/memory-redis/redis-store.ts'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'

t.test('a command issued the moment the store is created succeeds', async t => {
  const s = new RedisKvStore({ uri: REDIS_URI, namespace: `agentd-test-${randomBytes(6).toString('hex')}:`, maxListLength: 10, connectTimeoutMs: 2000 })
  t.teardown(async () => { await s.deletePrefix(''); await s.close() })
  t.not(s.client.status, 'ready', 'still connecting when the command is issued')
  await s.set('k', 'v')
  t.equal(await s.get('k'), 'v')
})

t.test('a store whose server is not there fails with StoreUnavailableError within the connect timeout', async t => {
  const s = new RedisKvStore({ uri: `redis://127.0.0.1:${await freePort()}`, namespace: 'x:', maxListLength: 10, connectTimeoutMs: 500 })
  t.teardown(async () => { await s.close() })
  // Rejecting at all is the point: without it the command would wait for a server forever.
  await t.rejects(s.get('k'), StoreUnavailableError)
  t.equal((await s.health()).status, 'unhealthy')
})
