// Pins recall fusion (issue 22: removing the ranking, the cuts or the exclusion must fail a test).
import t from 'tap'
import { fuseCandidates, partLimits, type TechniqueCandidates } from './recall-merge.ts'

const turn = (id: string, content = `text ${id}`, timestamp = '2024-01-01T00:00:00.000Z'): Record<string, unknown> => ({ id, content, timestamp })
const tech = (name: string, turns: Array<Record<string, unknown>>, weight = 1): TechniqueCandidates => ({ name, weight, candidates: { relevant_turns: turns } })
const ids = (xs: Array<Record<string, unknown>>): unknown[] => xs.map(x => x.id)

t.test('an item two techniques found ranks above items one technique ranked first', async t => {
  const out = fuseCandidates([tech('a', [turn('x'), turn('both')]), tech('b', [turn('y'), turn('both')])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['both', 'x', 'y'])
  t.ok((out.relevant_turns[0].score as number) > (out.relevant_turns[1].score as number), 'scores follow the order')
})

t.test('each list counts by rank: the first of a list ranks above its second', async t => {
  const out = fuseCandidates([tech('a', [turn('1'), turn('2'), turn('3')])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['1', '2', '3'])
})

t.test('weights scale a technique\'s say', async t => {
  const out = fuseCandidates([tech('light', [turn('l')], 0.3), tech('heavy', [turn('h')], 0.7)], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['h', 'l'])
  t.same(ids(fuseCandidates([tech('off', [turn('o')], 0), tech('on', [turn('n')])], partLimits(10), 60).relevant_turns), ['n'], 'weight 0 contributes nothing')
})

t.test('equal scores: the newer turn first', async t => {
  const out = fuseCandidates([tech('a', [turn('old', 'a', '2024-01-01T00:00:00Z')]), tech('b', [turn('new', 'b', '2024-06-01T00:00:00Z')])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['new', 'old'])
})

t.test('identical contents are collapsed into the best-ranked one', async t => {
  const out = fuseCandidates([tech('a', [turn('1', 'OK.'), turn('2', 'We adopted a dog'), turn('3', 'ok'), turn('4', ' OK! ')])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['1', '2'])
})

t.test('the current conversation\'s turns (exclude) are left out, from every technique', async t => {
  const out = fuseCandidates([tech('a', [turn('mine'), turn('other')]), tech('b', [turn('mine')])], partLimits(10), 60, new Set(['mine']))
  t.same(ids(out.relevant_turns), ['other'])
})

t.test('each part is cut to its limit (top_k for turns and facts, 5 entities, 3 strategies)', async t => {
  const many = (p: string): Array<Record<string, unknown>> => Array.from({ length: 12 }, (_, i) => ({ id: `${p}${i}`, content: `${p} ${i}` }))
  const out = fuseCandidates([{ name: 'a', weight: 1, candidates: { relevant_turns: many('t'), facts: many('f'), entities: many('e'), strategies: many('s') } }], partLimits(4), 60)
  t.equal(out.relevant_turns.length, 4)
  t.same(ids(out.relevant_turns), ['t0', 't1', 't2', 't3'], 'the best ones are kept')
  t.equal(out.facts.length, 4)
  t.equal(out.entities.length, 4)
  t.equal(out.strategies.length, 3)
  t.equal(fuseCandidates([{ name: 'a', weight: 1, candidates: { entities: many('e') } }], partLimits(10), 60).entities.length, 5)
})

t.test('items without an id come after, in order', async t => {
  const out = fuseCandidates([tech('a', [{ content: 'anon' }, turn('x')])], partLimits(10), 60)
  t.same(out.relevant_turns.map(x => x.content), ['text x', 'anon'])
})
