// What a store keeps beside a database handle (per-database.ts): per handle, bounded, forgettable.
import t from 'tap'
import type { Kysely } from 'kysely'
import { PerDatabase } from './per-database.ts'

const handle = (): Kysely<unknown> => ({}) as Kysely<unknown> // only its identity is used

t.test('values are kept per database handle', async t => {
  const kept = new PerDatabase<number>(10)
  const one = handle()
  kept.set(one, [['a', 1]])
  t.equal(kept.get(one, 'a'), 1)
  t.equal(kept.get(handle(), 'a'), undefined)
})

t.test('past its bound the memory starts over; what is being kept stays', async t => {
  const kept = new PerDatabase<number>(2)
  const db = handle()
  kept.set(db, [['a', 1], ['b', 2]])
  kept.set(db, [['c', 3]])
  t.same(['a', 'b', 'c'].map(k => kept.get(db, k)), [undefined, undefined, 3])
})

t.test('forget drops everything kept for a handle', async t => {
  const kept = new PerDatabase<number>(10)
  const db = handle()
  kept.set(db, [['a', 1]])
  kept.forget(db)
  t.equal(kept.get(db, 'a'), undefined)
})
