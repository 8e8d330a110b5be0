import t from 'tap'
import { MAX_SENTENCES, sentenceTexts, withSentences } from './sentences.ts'

t.test('sentenceTexts: the speaker is the writer\'s name first, else a transcript label\'s', async t => {
  const two = 'I moved to Berlin in May. It rained all week.'
  t.same(sentenceTexts(two, 'Caroline'), ['Caroline: I moved to Berlin in May.', 'Caroline: It rained all week.'])
  t.same(sentenceTexts(`Melanie: ${two}`, 'Caroline'), ['Caroline: I moved to Berlin in May.', 'Caroline: It rained all week.'], 'the name given wins over the text')
  t.same(sentenceTexts(`[1:56 pm on 8 May, 2023] Caroline: ${two}`), ['Caroline: I moved to Berlin in May.', 'Caroline: It rained all week.'])
  t.same(sentenceTexts('Dr. Anna Berg: Take two pills a day. Drink water with each.'), ['Dr. Anna Berg: Take two pills a day.', 'Dr. Anna Berg: Drink water with each.'])
  t.same(sentenceTexts(two), ['I moved to Berlin in May.', 'It rained all week.'], 'no label, no name: none')
  t.same(sentenceTexts(two, '  '), ['I moved to Berlin in May.', 'It rained all week.'], 'a blank name is none')
  t.same(sentenceTexts('the plan: leave early. Then drive north all day.'), ['the plan: leave early.', 'Then drive north all day.'], 'a lower-case lead is not a name')
  t.same(sentenceTexts('Caroline:no space here. Then we left the town.'), ['Caroline:no space here.', 'Then we left the town.'])
})

t.test('sentenceTexts: each informative sentence after its speaker', async t => {
  t.same(sentenceTexts('[1:56 pm on 8 May, 2023] Caroline: Wow! I went to a support group yesterday. It was so powerful and moving.'), [
    'Caroline: I went to a support group yesterday.',
    'Caroline: It was so powerful and moving.',
  ], 'the label is read with every sentence, the stamp left out, the exclamation dropped')
  t.same(sentenceTexts('We adopted a dog last weekend. She sleeps on the sofa all day.', 'Dana'), [
    'Dana: We adopted a dog last weekend.',
    'Dana: She sleeps on the sofa all day.',
  ])
  t.same(sentenceTexts('We adopted a dog last weekend. She sleeps on the sofa all day.'), [
    'We adopted a dog last weekend.',
    'She sleeps on the sofa all day.',
  ], 'no speaker known: the sentences alone')
})

t.test('sentenceTexts: none for a turn of one sentence', async t => {
  t.same(sentenceTexts('Caroline: I went to a support group yesterday.'), [])
  t.same(sentenceTexts('OK.'), [])
  t.same(sentenceTexts(''), [])
})

t.test('sentenceTexts: a long text gives at most MAX_SENTENCES', async t => {
  const text = Array.from({ length: 20 }, (_, i) => `Item number ${i} arrived broken today.`).join(' ')
  const got = sentenceTexts(text)
  t.equal(got.length, MAX_SENTENCES)
  t.equal(got[0], 'Item number 0 arrived broken today.', 'the first ones')
})

t.test('withSentences: own vector plus each sentence\'s, normalised', async t => {
  const own = [1, 0, 0]
  t.equal(withSentences(own, []), own, 'no sentences: the vector itself')
  t.equal(withSentences(own, [undefined, [0, 1]]), own, 'missing or other-sized vectors are left out')
  const v = withSentences(own, [[0, 1, 0], [0, 0, 1]])
  const n = Math.sqrt(3)
  t.same(v.map(x => Math.round(x * 1e6)), [1 / n, 1 / n, 1 / n].map(x => Math.round(x * 1e6)))
})
