import t from 'tap'
import { CONTEXT_MAX_WORDS, CONTEXT_WEIGHTS, contextTexts, contextWords, informative, withContext } from './context.ts'

t.test('informative: two words besides function words', async t => {
  t.equal(informative('OK.'), false)
  t.equal(informative('Noted.'), false)
  t.equal(informative('Where to?'), false)
  t.equal(informative('How long were you stuck?'), true)
  t.equal(informative('I am moving out in September.'), true)
})

t.test('contextTexts: the last informative earlier turns, nearest first, at most as many as there are weights', async t => {
  const earlier = ['We adopted a dog last weekend.', 'OK.', 'The car broke down near Porto.', 'Noted.', 'How long were you stuck?', 'OK.'].map(content => ({ content }))
  t.same(contextTexts(earlier), ['How long were you stuck?', 'The car broke down near Porto.'])
  t.equal(CONTEXT_WEIGHTS.length, 2)
  t.same(contextTexts([{ content: 'OK.' }]), [])
  t.same(contextTexts([]), [])
})

t.test('withContext: own vector plus the context weighed by nearness, normalised', async t => {
  const own = [1, 0, 0]
  t.equal(withContext(own, []), own, 'no context: the vector itself')
  t.equal(withContext(own, [undefined]), own)
  const v = withContext(own, [[0, 1, 0], [0, 0, 1]])
  const n = Math.hypot(1, CONTEXT_WEIGHTS[0], CONTEXT_WEIGHTS[1])
  t.same(v.map(x => Math.round(x * 1e6)), [1 / n, CONTEXT_WEIGHTS[0] / n, CONTEXT_WEIGHTS[1] / n].map(x => Math.round(x * 1e6)))
  t.ok(v[0] > v[1] && v[1] > v[2], 'the turn weighs most, then the nearest earlier turn')
  t.same(withContext(own, [[0, 1]]), [1, 0, 0], 'a vector of another size is left out')
})

t.test('contextWords: the context\'s content words once, nearest text first', async t => {
  t.equal(contextWords('Two nights in a tiny hotel.', ['How long were you stuck at the airport?', 'The airport was closed.']), 'long stuck airport closed')
})

t.test('contextWords: none for a turn that says nothing, a question, or no context', async t => {
  t.equal(contextWords('OK.', ['How long were you stuck at the airport?']), undefined)
  t.equal(contextWords('Did you find a hotel nearby?', ['How long were you stuck at the airport?']), undefined)
  t.equal(contextWords('Which airport was it, "Porto?"', ['The flight was cancelled twice.']), undefined, 'a question mark before a closing quote')
  t.equal(contextWords('Two nights in a tiny hotel.', []), undefined)
  t.equal(contextWords('Two nights in a tiny hotel.', ['Oh, is it?']), undefined, 'a context of function words only gives none')
})

t.test('contextWords: at most CONTEXT_MAX_WORDS, the nearest text\'s words first', async t => {
  const long = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ')
  const got = contextWords('Two nights in a tiny hotel.', ['The airport closed.', long])?.split(' ') ?? []
  t.equal(got.length, CONTEXT_MAX_WORDS)
  t.same(got.slice(0, 3), ['airport', 'closed', 'word0'])
})
