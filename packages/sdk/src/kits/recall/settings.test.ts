import t from 'tap'
import { candidateDepth } from './settings.ts'

t.test('candidateDepth: recall_candidate_depth when times x top_k is shallower', async t => {
  t.equal(candidateDepth(10, {}), 100, 'the default depth')
  t.equal(candidateDepth(10, { recall_candidate_depth: 20 }, 2), 20, 'a configured depth')
})

t.test('candidateDepth: times x top_k when it is deeper', async t => {
  t.equal(candidateDepth(40, {}), 120)
})

t.test('candidateDepth: never under the floor of a technique that keeps only some of what it reads', async t => {
  t.equal(candidateDepth(5, { recall_candidate_depth: 20 }, 5, 50), 50)
})

t.test('candidateDepth: an out-of-range setting falls back to the default', async t => {
  t.equal(candidateDepth(5, { recall_candidate_depth: 9999 }), 100)
})
