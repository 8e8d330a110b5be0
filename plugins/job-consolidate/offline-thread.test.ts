// The offline extractor's worker: the same extraction as in the calling thread, the worker
// ended after idling and when the only extraction waiting on it is aborted.
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { OfflineWorkerExtractor } from './offline-thread.ts'
import { OfflineExtractor } from './offline-extractor.ts'

const TURNS = [{ id: 't1', content: 'I work at Acme. My sister Anna lives in Paris.' }]

t.test('extracts what the in-thread extractor extracts; idles out; an abort ends the work', async t => {
  const x = new OfflineWorkerExtractor({ idleMs: 50 })
  t.teardown(async () => { await x.close() })
  const inWorker = await x.extract(TURNS)
  t.ok(x.threadId !== undefined, 'a worker runs')
  t.same(inWorker, await new OfflineExtractor().extract(TURNS))
  await sleep(300)
  t.equal(x.threadId, undefined, 'ended after idling')

  const long = [{ id: 't2', content: Array.from({ length: 400 }, (_, i) => `My friend Tom ${i} lives in Rome.`).join(' ') }]
  const ac = new AbortController()
  const pending = x.extract(long, ac.signal)
  ac.abort(new Error('job timed out'))
  await t.rejects(pending, /job timed out/)
  t.equal(x.threadId, undefined, 'the worker doing only aborted work is ended')
  t.equal(x.starts, 2)
  t.match(await x.extract(TURNS), { facts: [{ claim: 'The user works at Acme.' }] }, 'the next extraction starts another')
  t.equal(x.starts, 3)
})
