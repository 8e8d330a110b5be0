// Pins recall fusion (issue 22: removing the ranking, the cuts or the exclusion must fail a test).
import t from 'tap'
import type { Turn } from '@agentd/sdk/contracts/memory-stores'
import { contentKey } from '@agentd/sdk/kits/recall'
import { fuseCandidates, partLimits, type TechniqueCandidates } from './recall-merge.ts'

/** Items as loose as a technique from another plugin may send (typed, not checked): the fusion reads only id, content, timestamp. */
const loose = (x: unknown): never => x as never

const turn = (id: string, content = `text ${id}`, timestamp = '2024-01-01T00:00:00.000Z'): Turn => ({ id, content, timestamp, conversation_id: 'c', index: 0, role: 'user', token_count: null, metadata: {}, channel: 'default', embedder: null })
const tech = (name: string, turns: Turn[], weight = 1): TechniqueCandidates => ({ name, weight, candidates: { relevant_turns: turns } })
const ids = (xs: Array<{ id?: unknown }>): unknown[] => xs.map(x => x.id)

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
  const out = fuseCandidates([tech('a', [turn('mine'), turn('other')]), tech('b', [turn('mine')])], partLimits(10), 60, { ids: new Set(['mine']), texts: new Set() })
  t.same(ids(out.relevant_turns), ['other'])
})

t.test('turns saying what the prompt holds (exclude.texts, as contentKey) are left out, however spaced or cased', async t => {
  const out = fuseCandidates([tech('a', [turn('1', 'My cat is Felix'), turn('2', 'We adopted a dog'), turn('3', ' my CAT is felix! ')])], partLimits(10), 60, { ids: new Set(), texts: new Set([contentKey('My cat is Felix')]) })
  t.same(ids(out.relevant_turns), ['2'])
})

t.test('each part is cut to its limit (top_k for turns and facts, 5 entities, 3 strategies)', async t => {
  const many = (p: string): never[] => loose(Array.from({ length: 12 }, (_, i) => ({ id: `${p}${i}`, content: `${p} ${i}` })))
  const out = fuseCandidates([{ name: 'a', weight: 1, candidates: { relevant_turns: many('t'), facts: many('f'), entities: many('e'), strategies: many('s') } }], partLimits(4), 60)
  t.equal(out.relevant_turns.length, 4)
  t.same(ids(out.relevant_turns), ['t0', 't1', 't2', 't3'], 'the best ones are kept')
  t.equal(out.facts.length, 4)
  t.equal(out.entities.length, 4)
  t.equal(out.strategies.length, 3)
  t.equal(fuseCandidates([{ name: 'a', weight: 1, candidates: { entities: many('e') } }], partLimits(10), 60).entities.length, 5)
})

t.test('items without an id come after, in order', async t => {
  const out = fuseCandidates([tech('a', [loose({ content: 'anon' }), turn('x')])], partLimits(10), 60)
  t.same(out.relevant_turns.map(x => x.content), ['text x', 'anon'])
})

t.test('the fused score is Σ weight / (k + rank), rank from 1, to 6 decimals', async t => {
  const out = fuseCandidates([tech('a', [turn('x'), turn('y')]), tech('b', [turn('y')], 0.5)], partLimits(10), 60)
  t.same(out.relevant_turns.map(x => [x.id, x.score]), [['y', Math.round((1 / 62 + 0.5 / 61) * 1e6) / 1e6], ['x', Math.round(1 / 61 * 1e6) / 1e6]])
})

t.test('found_by names every technique that found the item, once each', async t => {
  const out = fuseCandidates([tech('a', [turn('both'), turn('only-a'), turn('both')]), tech('b', [turn('both')])], partLimits(10), 60)
  t.same(out.relevant_turns.map(x => [x.id, x.found_by]), [['both', ['a', 'b']], ['only-a', ['a']]])
})

t.test('other parts: ties keep the order first seen (no recency), and equal texts are not collapsed', async t => {
  const fact = (id: string, claim: string, timestamp: string): never => loose({ id, content: claim, claim, timestamp })
  const out = fuseCandidates([
    { name: 'a', weight: 1, candidates: { facts: [fact('old', 'Same claim', '2020-01-01T00:00:00Z')] } },
    { name: 'b', weight: 1, candidates: { facts: [fact('new', 'Same claim', '2024-01-01T00:00:00Z')] } },
    { name: 'c', weight: 1, candidates: { facts: [fact('newest', 'Other', '2025-01-01T00:00:00Z')] } },
  ], partLimits(10), 60)
  t.same(ids(out.facts), ['old', 'new', 'newest'])
})

t.test('active goals are fused too', async t => {
  const out = fuseCandidates([{ name: 'a', weight: 1, candidates: { active_goals: [loose({ id: 'g1', description: 'Learn Portuguese' })] } }], partLimits(10), 60)
  t.same(ids(out.active_goals), ['g1'])
})

t.test('a tied turn without a timestamp counts as the oldest', async t => {
  const out = fuseCandidates([tech('a', [loose({ id: 'undated', content: 'u' })]), tech('b', [turn('dated', 'd', '2024-01-01T00:00:00Z')])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['dated', 'undated'])
})

t.test('turns without text are never collapsed', async t => {
  const out = fuseCandidates([tech('a', [loose({ id: '1', timestamp: '2024-01-01T00:00:00Z' }), loose({ id: '2', timestamp: '2024-01-01T00:00:00Z' })])], partLimits(10), 60)
  t.same(ids(out.relevant_turns), ['1', '2'])
})

t.test('"the same text": spacing runs and final punctuation runs are ignored; words, inner punctuation and letters count', async t => {
  const same = (a: string, b: string): boolean => ids(fuseCandidates([tech('x', [turn('1', a), turn('2', b)])], partLimits(10), 60).relevant_turns).length === 1
  t.ok(same('We  adopted\ta dog', 'we adopted a dog'), 'spacing')
  t.ok(same('OK', 'OK!!'), 'a run of final punctuation')
  t.notOk(same('a b', 'ab'), 'a space between words counts')
  t.notOk(same('Yes. No', 'Yes No'), 'punctuation inside counts')
  t.notOk(same('Straße', 'STRASSE'), 'letters are compared lower-cased, not folded further')
})

t.test('a technique\'s answer can weigh a part of it otherwise than the technique does; its other parts keep the technique\'s weight', async t => {
  const vector = { name: 'vector_recency', weight: 1, candidates: { relevant_turns: [turn('v', 'near')], facts: [loose({ id: 'f1' })], weights: { relevant_turns: 0.7 } } }
  const keyword = { name: 'hybrid', weight: 1, candidates: { relevant_turns: [turn('k', 'word')], facts: [loose({ id: 'f2' })], weights: { relevant_turns: 0.3 } } }
  const out = fuseCandidates([keyword, vector], partLimits(10), 20)
  t.same(ids(out.relevant_turns), ['v', 'k'], 'the vector list\'s first outranks the keyword list\'s first')
  t.equal(out.relevant_turns[0].score, Math.round(0.7 / 21 * 1e6) / 1e6)
  t.same(ids(out.facts), ['f2', 'f1'], 'facts: equal weights, so the first list given ranks first')
  const flipped = fuseCandidates([keyword, { ...vector, candidates: { ...vector.candidates, weights: { relevant_turns: 0.2 } } }], partLimits(10), 20)
  t.same(ids(flipped.relevant_turns), ['k', 'v'])
})
