// The outbox alone, against a store double that can be "down": order, once, bounds,
// and the file surviving a reopen (a restart) with a torn last write.
import t, { type Test } from 'tap'
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import { DurableLog } from './durable-log.ts'
import { Outbox, type LogEntry } from './outbox.ts'
import { until } from '../../../test/helpers/poll.ts'

const log = pino({ level: 'silent' })
const limits = { maxEntries: 1000, maxBytes: 1024 * 1024, writeTimeoutMs: 200, maxRetryMs: 50, maxAttempts: 3 }

function tmp (t: Test): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentd-outbox-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  return dir
}

/** A store that keeps ids once, and can be down. */
function store (): { up: boolean, items: string[], write: (id: string) => Promise<string>, apply: (e: LogEntry) => Promise<void> } {
  const s = {
    up: true,
    items: [] as string[],
    write: async (id: string): Promise<string> => {
      if (!s.up) throw new StoreUnavailableError('relational', 'test', new Error('connection refused'))
      if (!s.items.includes(id)) s.items.push(id)
      return id
    },
    apply: async (e: LogEntry): Promise<void> => { await s.write(e.data as string) },
  }
  return s
}
const entry = (id: string, key = 'k'): LogEntry => ({ at: new Date().toISOString(), kind: 'x', key, data: id })

t.test('writes go straight to a store that is up', async t => {
  const s = store()
  const o = new Outbox({ dir: tmp(t), ...limits }, log)
  t.teardown(async () => { await o.close() })
  o.attach(s.apply, log)
  t.match(await o.write(entry('a'), async () => await s.write('a')), { status: 'stored', value: 'a' })
  t.equal(o.pending, 0)
})

t.test('a store that is down: writes are queued in order and stored once when it is back', async t => {
  const s = store()
  const o = new Outbox({ dir: tmp(t), ...limits }, log)
  t.teardown(async () => { await o.close() })
  o.attach(s.apply, log)
  s.up = false
  for (const id of ['a', 'b', 'c']) t.match(await o.write(entry(id), async () => await s.write(id)), { status: 'queued' })
  t.equal(o.pending, 3)
  t.match(o.status(), { status: 'waiting', pending: 3, last_error: /unavailable/ })
  s.up = true
  // A write after the store came back still waits behind the queued ones.
  t.match(await o.write(entry('d', 'other'), async () => await s.write('d')), { status: 'queued' })
  await until('the outbox to drain', async () => o.pending === 0)
  t.same(s.items, ['a', 'b', 'c', 'd'])
  t.match(o.status(), { status: 'empty', pending: 0, replayed: 4 })
})

t.test('a write with no answer in time is queued, and its late success is not stored twice', async t => {
  const s = store()
  const o = new Outbox({ dir: tmp(t), ...limits }, log)
  t.teardown(async () => { await o.close() })
  o.attach(s.apply, log)
  let release!: () => void
  const slow = new Promise<void>(resolve => { release = resolve })
  let late: Promise<string> | undefined
  const r = await o.write(entry('slow'), async () => { late = (async () => { await slow; return await s.write('slow') })(); return await late })
  t.match(r, { status: 'queued' })
  await until('the replay', async () => o.pending === 0)
  release()
  await late
  t.same(s.items, ['slow'])
})

t.test('the log survives a reopen (a restart) and skips a torn last write', async t => {
  const dir = tmp(t)
  const a = new DurableLog(dir, limits)
  for (const id of ['1', '2', '3']) a.append(entry(id))
  a.ack()
  a.close()
  appendFileSync(path.join(dir, 'outbox.jsonl'), '{"at":"2026-01-01","kind":"x","ke')
  const b = new DurableLog(dir, limits)
  t.equal(b.skipped, 1)
  t.same([b.peek()?.data, b.size], ['2', 2])
  b.append(entry('4'))
  b.close()
  const c = new DurableLog(dir, limits)
  const seen: unknown[] = []
  while (c.size > 0) { seen.push(c.peek()?.data); c.ack() }
  t.same(seen, ['2', '3', '4'], 'in order, the torn write dropped, nothing taken twice')
  c.close()
  const d = new DurableLog(dir, limits)
  t.equal(d.size, 0, 'drained stays drained')
  d.close()
})

t.test('an outbox restarted during the outage replays what it held', async t => {
  const dir = tmp(t)
  const s = store()
  s.up = false
  const first = new Outbox({ dir, ...limits }, log)
  first.attach(s.apply, log)
  for (const id of ['a', 'b']) await first.write(entry(id), async () => await s.write(id))
  await first.close()
  const second = new Outbox({ dir, ...limits }, log)
  t.teardown(async () => { await second.close() })
  t.equal(second.pending, 2)
  s.up = true
  second.attach(s.apply, log)
  await until('the outbox to drain', async () => second.pending === 0)
  t.same(s.items, ['a', 'b'])
})

t.test('bounded: a full outbox refuses the write and says so', async t => {
  const s = store()
  s.up = false
  const o = new Outbox({ dir: tmp(t), ...limits, maxEntries: 2 }, log)
  t.teardown(async () => { await o.close() })
  for (const id of ['a', 'b']) t.match(await o.write(entry(id), async () => await s.write(id)), { status: 'queued' })
  const r = await o.write(entry('c'), async () => await s.write('c'))
  t.match(r, { status: 'failed', error: { message: /outbox is full/ } })
  t.equal(o.status().status, 'full')
})

t.test('a write that fails for another reason than an outage is not queued; a queued one that keeps failing is set aside', async t => {
  const dir = tmp(t)
  const s = store()
  const o = new Outbox({ dir, ...limits }, log)
  t.teardown(async () => { await o.close() })
  t.match(await o.write(entry('bad'), async () => { throw new Error('bad input') }), { status: 'failed', error: { message: 'bad input' } })
  t.equal(o.pending, 0)
  s.up = false
  await o.write(entry('poison'), async () => await s.write('poison'))
  await o.write(entry('good'), async () => await s.write('good'))
  s.up = true
  o.attach(async e => { if (e.data === 'poison') throw new Error('cannot store this'); await s.apply(e) }, log)
  await until('the outbox to drain', async () => o.pending === 0)
  t.same(s.items, ['good'])
  const { readFileSync } = await import('node:fs')
  t.match(readFileSync(path.join(dir, 'outbox.failed.jsonl'), 'utf8'), /"poison".*cannot store this/)
})
