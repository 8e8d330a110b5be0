// What keyword searches counted of each word (word-counts.ts): kept per database and set
// of channels, scaled by the channels' growth, forgotten after ten minutes.
import t from 'tap'
import type { Kysely } from 'kysely'
import { countTurns, countedTurns } from './word-counts.ts'

const handle = (): Kysely<unknown> => ({}) as Kysely<unknown> // only its identity is used

t.test('a word not counted yet is unknown; once counted it is known for ten minutes', async t => {
  const db = handle()
  t.equal(countedTurns(db, 'a', 'alex', 100, 0), undefined)
  countTurns(db, 'a', ['alex', 'zebra'], [40, 2], 100, 0)
  t.equal(countedTurns(db, 'a', 'alex', 100, 1000), 40)
  t.equal(countedTurns(db, 'a', 'zebra', 100, 599_999), 2)
  t.equal(countedTurns(db, 'a', 'zebra', 100, 600_000), undefined, 'forgotten')
  t.equal(countedTurns(db, 'b', 'alex', 100, 1000), undefined, 'per set of channels')
  t.equal(countedTurns(handle(), 'a', 'alex', 100, 1000), undefined, 'per database')
})

t.test('a count grows with the channels', async t => {
  const db = handle()
  countTurns(db, 'a', ['alex'], [40], 100, 0)
  t.equal(countedTurns(db, 'a', 'alex', 200, 0), 80)
  t.equal(countedTurns(db, 'a', 'alex', 50, 0), 40, 'never below what was counted')
})
