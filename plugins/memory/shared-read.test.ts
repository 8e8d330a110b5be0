// sharedRead (recall-bundle.ts): the techniques of one recall share the query's nearest
// turns and entities, read once unless a technique asks deeper.
import t from 'tap'
import { sharedRead } from './recall-bundle.ts'

t.test('asks at the same or a smaller depth share one read; a deeper ask reads again', async t => {
  const reads: number[] = []
  const nearest = sharedRead(async limit => { reads.push(limit); return Array.from({ length: limit }, (_, i) => i) })
  const [a, b] = await Promise.all([nearest(5), nearest(3)])
  t.same(a, [0, 1, 2, 3, 4])
  t.same(b, [0, 1, 2], 'cut to its own depth')
  t.same(await nearest(8), [0, 1, 2, 3, 4, 5, 6, 7])
  t.same(reads, [5, 8])
})
