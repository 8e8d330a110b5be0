import t from 'tap'
import { candidateDepth } from './settings.ts'

t.test('candidateDepth: recall_candidate_depth by default, times x top_k when deeper, and never under a floor', async t => {
  t.equal(candidateDepth(10, {}), 100, 'the default depth')
  t.equal(candidateDepth(40, {}), 120, '3 x top_k past it')
  t.equal(candidateDepth(10, { recall_candidate_depth: 20 }, 2), 20)
  t.equal(candidateDepth(5, { recall_candidate_depth: 20 }, 5, 50), 50, 'the floor of a technique that keeps only some of what it reads')
  t.equal(candidateDepth(5, { recall_candidate_depth: 9999 }), 100, 'an out-of-range setting falls back to the default')
})
