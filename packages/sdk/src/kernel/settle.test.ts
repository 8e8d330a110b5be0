import t from 'tap'
import { raceAbort, TIMED_OUT, within } from './settle.ts'

const timers = (): number => process.getActiveResourcesInfo().filter(r => r === 'Timeout').length

t.test('within gives the value of a promise that settles in time, and leaves no timer behind', async t => {
  const before = timers()
  t.equal(await within(Promise.resolve(42), 60_000), 42)
  t.equal(timers(), before, 'the 60 s timer was cleared when the promise settled')
})

t.test('within gives TIMED_OUT when the time runs out first', async t => {
  const never = new Promise<number>(() => {})
  t.equal(await within(never, 20), TIMED_OUT, 'the promise never settles: only the time limit can answer')
})

t.test('within throws a rejection that comes in time', async t => {
  await t.rejects(within(Promise.reject(new Error('store down')), 1000), { message: 'store down' })
})

t.test('a rejection after the time ran out is not an unhandled rejection', async t => {
  const unhandled: unknown[] = []
  const on = (err: unknown): void => { unhandled.push(err) }
  process.on('unhandledRejection', on)
  t.teardown(() => { process.off('unhandledRejection', on) })
  let rejectLate!: (err: Error) => void
  const late = new Promise<number>((_resolve, reject) => { rejectLate = reject })
  t.equal(await within(late, 5), TIMED_OUT)
  rejectLate(new Error('late'))
  // Unhandled rejections are reported once the microtasks after the rejection have run;
  // two turns of the event loop later that moment has passed.
  await new Promise(resolve => setImmediate(resolve))
  await new Promise(resolve => setImmediate(resolve))
  t.same(unhandled, [])
})

t.test('raceAbort rejects with the signal\'s reason as soon as it aborts', async t => {
  const ac = new AbortController()
  const never = new Promise<number>(() => {})
  const raced = raceAbort(never, ac.signal)
  ac.abort(new Error('client went away'))
  await t.rejects(raced, { message: 'client went away' })
})

t.test('raceAbort on an already aborted signal rejects at once', async t => {
  const ac = new AbortController()
  ac.abort(new Error('cancelled'))
  await t.rejects(raceAbort(Promise.resolve(1), ac.signal), { message: 'cancelled' })
})

t.test('raceAbort gives the value and removes its abort listener', async t => {
  const ac = new AbortController()
  let added = 0
  let removed = 0
  const add = ac.signal.addEventListener.bind(ac.signal)
  const remove = ac.signal.removeEventListener.bind(ac.signal)
  ac.signal.addEventListener = ((...args: Parameters<typeof add>) => { added++; add(...args) }) as typeof add
  ac.signal.removeEventListener = ((...args: Parameters<typeof remove>) => { removed++; remove(...args) }) as typeof remove
  t.equal(await raceAbort(Promise.resolve('ok'), ac.signal), 'ok')
  t.equal(added, 1)
  t.equal(removed, 1)
})
