// The channels' sizes keyword search keeps (channel-sizes.ts): read once, then kept by this
// process's writes, and read again when a minute old, when the turns table has grown by a
// quarter, or after a delete.
import t from 'tap'
import type { Kysely } from 'kysely'
import { knownSize, setSizes, sizeCheck, turnAdded, turnsRemoved } from './channel-sizes.ts'

const handle = (): Kysely<unknown> => ({}) as Kysely<unknown> // only its identity is used

t.test('a channel never read is read; once read its size is known until a minute passes', async t => {
  const db = handle()
  t.same(sizeCheck(db, ['a', 'b', 'a'], 0), { channels: ['a', 'b'], always: true, past: 0 }, 'each channel once')
  t.equal(knownSize(db, ['a']), undefined)
  setSizes(db, ['a', 'b'], { a: 5 }, 8000, 1_000)
  t.equal(knownSize(db, ['a', 'b']), 5, 'a channel missing from the read holds no turns')
  t.same(sizeCheck(db, ['a', 'b'], 60_999), { channels: ['a', 'b'], always: false, past: 10_000 }, 'read only if the table outgrew a quarter more')
  t.equal(sizeCheck(db, ['a', 'b'], 61_000).always, true, 'read again after a minute')
  t.equal(knownSize(db, ['a', 'b']), 5, 'still known while it is read again')
})

t.test('the growth checked is from the channel read when the table was smallest', async t => {
  const db = handle()
  setSizes(db, ['a'], { a: 1 }, 8000)
  setSizes(db, ['b'], { b: 1 }, 16000)
  t.equal(sizeCheck(db, ['a', 'b']).past, 10_000)
})

t.test('turns this process adds are counted; a delete forgets every size', async t => {
  const db = handle()
  turnAdded(db, 'a')
  t.equal(knownSize(db, ['a']), undefined, 'a channel not read yet is not guessed')
  setSizes(db, ['a'], { a: 2 }, 8000)
  turnAdded(db, 'a'); turnAdded(db, 'a')
  t.equal(knownSize(db, ['a']), 4)
  turnsRemoved(db)
  t.equal(sizeCheck(db, ['a']).always, true)
})

t.test('sizes are kept per database', async t => {
  const one = handle()
  const two = handle()
  setSizes(one, ['a'], { a: 3 }, 8000)
  t.equal(knownSize(two, ['a']), undefined)
})
