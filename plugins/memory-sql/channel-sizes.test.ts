// The channels' sizes keyword search keeps (channel-sizes.ts): read once, then kept by this
// process's writes, and read again when a minute old or after a delete.
import t from 'tap'
import type { Kysely } from 'kysely'
import { knownSize, setSizes, turnAdded, turnsRemoved, unknownSizes } from './channel-sizes.ts'

const handle = (): Kysely<unknown> => ({}) as Kysely<unknown> // only its identity is used

t.test('a channel never read is unknown; once read its size is known until a minute passes', async t => {
  const db = handle()
  t.same(unknownSizes(db, ['a', 'b', 'a'], 0), ['a', 'b'], 'each channel once')
  t.equal(knownSize(db, ['a']), undefined)
  setSizes(db, ['a', 'b'], { a: 5 }, 1_000)
  t.equal(knownSize(db, ['a', 'b']), 5, 'a channel missing from the read holds no turns')
  t.same(unknownSizes(db, ['a', 'b'], 60_999), [])
  t.same(unknownSizes(db, ['a', 'b'], 61_000), ['a', 'b'], 'read again after a minute')
  t.equal(knownSize(db, ['a', 'b']), 5, 'still known while it is read again')
})

t.test('turns this process adds are counted; a delete forgets every size', async t => {
  const db = handle()
  turnAdded(db, 'a')
  t.equal(knownSize(db, ['a']), undefined, 'a channel not read yet is not guessed')
  setSizes(db, ['a'], { a: 2 })
  turnAdded(db, 'a'); turnAdded(db, 'a')
  t.equal(knownSize(db, ['a']), 4)
  turnsRemoved(db)
  t.same(unknownSizes(db, ['a']), ['a'])
})

t.test('sizes are kept per database', async t => {
  const one = handle()
  const two = handle()
  setSizes(one, ['a'], { a: 3 })
  t.equal(knownSize(two, ['a']), undefined)
})
