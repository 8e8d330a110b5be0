// cld3 in worker threads: the same answers as in the thread, batches under load, a
// crashed worker replaced (its texts retried once), nothing left running after dispose.
import t from 'tap'
import { until } from '../../test/helpers/poll.ts'
import { threadId } from 'node:worker_threads'
import { loadCld3 } from './cld3-backend.ts'
import { loadCld3Pool, poolSize } from './cld3-pool.ts'
import { detectWith } from './detector.ts'
import { ModelUnavailableError } from '@agentd/sdk/kits/models'
import { CRASHING_WORKER_URL } from './test-fixtures/crashing-detect.ts'
import { udhrSnippets } from './udhr-snippets.ts'

const FR = 'Tous les êtres humains naissent libres et égaux en dignité et en droits.'
const DE = 'Alle Menschen sind frei und gleich an Würde und Rechten geboren.'


const workerPorts = (): number => process.getActiveResourcesInfo().filter(r => r === 'MessagePort').length

t.test('workers "auto" leaves a core to the event loop: 1 to 4 workers', async t => {
  t.same([1, 2, 3, 5, 8, 64].map(cores => poolSize('auto', cores)), [1, 1, 2, 4, 4, 4])
  t.equal(poolSize(0, 8), 0, 'a number is taken as is')
  t.equal(poolSize(3, 2), 3)
})

t.test('the pool answers exactly like cld3 in the thread, one at a time and batched', async t => {
  const pool = await loadCld3Pool(2)
  const local = await loadCld3()
  t.teardown(async () => { await pool.dispose?.(); await local.dispose?.() })
  const texts = udhrSnippets(40).filter((_s, i) => i % 5 === 0).map(s => s.text)
  t.ok(texts.length > 300, `${texts.length} snippets`)
  for (const text of texts.slice(0, 20)) t.same(await detectWith(pool, text), await detectWith(local, text), text)
  // All at once: they queue, and go to the workers in batches.
  const together = await Promise.all(texts.map(async text => await detectWith(pool, text)))
  const alone = await Promise.all(texts.map(async text => await detectWith(local, text)))
  t.same(together, alone, 'same detections for every snippet')
})

t.test('detection runs in worker threads, not in this one', async t => {
  const pool = await loadCld3Pool(2)
  t.teardown(async () => { await pool.dispose?.() })
  const threads = pool.threads()
  t.equal(threads.length, 2)
  t.notOk(threads.includes(threadId), `worker thread ids ${threads.join(', ')}, this thread ${threadId}`)
})

t.test('a worker that crashes with texts in flight is replaced, and the texts are retried', async t => {
  const pool = await loadCld3Pool(1, { workerUrl: CRASHING_WORKER_URL })
  t.teardown(async () => { await pool.dispose?.() })
  const before = pool.threads()
  // Two go out as their own messages at once; the rest queue and go out as one batch,
  // which CRASH-BATCHED crashes; alone on the retry it goes through.
  const texts = [FR, DE, FR, `${DE} CRASH-BATCHED`, FR, DE]
  const got = await Promise.all(texts.map(async text => (await pool.guess(text)).language))
  t.same(got, ['fr', 'de', 'fr', 'de', 'fr', 'de'])
  t.equal(pool.restarts(), 1, 'one replacement')
  t.equal(pool.threads().length, 1)
  t.not(pool.threads()[0], before[0], 'a new thread')
  t.equal((await pool.guess(FR)).language, 'fr', 'and it keeps working')
})

t.test('a text that crashes the worker twice gets a clear 503 error; the others go through', async t => {
  const pool = await loadCld3Pool(1, { workerUrl: CRASHING_WORKER_URL })
  t.teardown(async () => { await pool.dispose?.() })
  const [a, poison, b, c] = await Promise.allSettled([FR, `${FR} CRASH-ALWAYS`, DE, FR].map(async text => await pool.guess(text)))
  t.equal(poison.status, 'rejected')
  const err = (poison as PromiseRejectedResult).reason as Error
  t.type(err, ModelUnavailableError)
  t.match(err.message, /stopped twice while detecting this text.*Retry the request/)
  for (const r of [a, b, c]) t.equal(r.status, 'fulfilled', 'the texts that shared its worker are answered')
  t.equal(pool.restarts(), 2, 'replaced after each crash')
  t.equal((await pool.guess(DE)).language, 'de')
})

t.test('a worker that exits (no exception) is replaced too', async t => {
  const pool = await loadCld3Pool(2, { workerUrl: CRASHING_WORKER_URL })
  t.teardown(async () => { await pool.dispose?.() })
  await t.rejects(pool.guess('EXIT-ALWAYS bitte'), ModelUnavailableError)
  t.equal(pool.restarts(), 2, 'the first worker, then the one it was retried on')
  // The replacements may still be starting: a guess waits for the first one ready.
  const got = await Promise.all([FR, DE, FR, DE].map(async text => (await pool.guess(text)).language))
  t.same(got, ['fr', 'de', 'fr', 'de'])
  await until('two worker threads', () => pool.threads().length === 2, 20_000)
  t.pass('both workers replaced')
})

t.test('dispose fails what is in flight, ends every thread, and later guesses fail at once', async t => {
  const ports = workerPorts()
  const pool = await loadCld3Pool(2)
  t.equal(workerPorts(), ports + 2, 'a port per worker while running')
  const inFlight = Promise.allSettled(Array.from({ length: 50 }, async () => await pool.guess(FR)))
  await pool.dispose?.()
  const outcomes = await inFlight
  // What a worker had answered before it ended counts; everything else fails, saying why.
  const failed = outcomes.filter(o => o.status === 'rejected')
  t.ok(failed.length > 0, `${failed.length} of 50 failed`)
  t.ok(failed.every(o => o.reason instanceof ModelUnavailableError && /unloaded/.test(o.reason.message)), 'saying the detector was unloaded')
  t.ok(outcomes.every(o => o.status === 'rejected' || o.value.language === 'fr'), 'the others are right')
  t.same(pool.threads(), [])
  t.equal(workerPorts(), ports, 'no worker handle left open')
  await t.rejects(Promise.resolve().then(async () => await pool.guess(DE)), /unloaded/)
})

t.test('dispose while a replacement is starting waits for it and ends it', async t => {
  const ports = workerPorts()
  const pool = await loadCld3Pool(1, { workerUrl: CRASHING_WORKER_URL })
  const lost = pool.guess('EXIT-ALWAYS').catch((err: Error) => err)
  // The first exit schedules a replacement; dispose lands while it may still be starting.
  await until('the crashed worker to be restarted', () => pool.restarts() > 0, 20_000)
  await pool.dispose?.()
  t.type(await lost, Error)
  t.equal(workerPorts(), ports, 'no worker handle left open')
})
