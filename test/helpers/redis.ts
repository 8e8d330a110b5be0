// A Redis key namespace of the test's own on the real Redis, its keys deleted at teardown.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'

export const REDIS_URI = process.env.TEST_REDIS_URI ?? 'redis://127.0.0.1:6379'

/** A connected client and a fresh `<prefix>-<random>:` namespace; both cleaned up when the test ends. */
export async function redisNamespace (t: { teardown: (fn: () => Promise<void>) => void }, prefix: string): Promise<{ redis: Redis, namespace: string }> {
  const namespace = `${prefix}-${randomUUID().slice(0, 8)}:`
  const redis = new Redis(REDIS_URI, { lazyConnect: true, maxRetriesPerRequest: 1 })
  await redis.connect()
  t.teardown(async () => {
    const keys = await redis.keys(`${namespace}*`)
    if (keys.length > 0) await redis.del(...keys)
    redis.disconnect()
  })
  return { redis, namespace }
}
