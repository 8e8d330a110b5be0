import t from 'tap'
import { MAX_SENTENCES, sentenceTexts, turnSpeaker, withSentences } from './sentences.ts'

t.test('turnSpeaker: the writer\'s name first, else a transcript label\'s', async t => {
  t.equal(turnSpeaker('I moved here in May.', 'Caroline'), 'Caroline')
  t.equal(turnSpeaker('Melanie: I moved here in May.', 'Caroline'), 'Caroline', 'the name given wins over the text')
  t.equal(turnSpeaker('[1:56 pm on 8 May, 2023] Caroline: I went to a support group.'), 'Caroline')
  t.equal(turnSpeaker('Dr. Anna Berg: Take two a day.'), 'Dr. Anna Berg')
  t.equal(turnSpeaker('I moved here in May.'), undefined)
  t.equal(turnSpeaker('the plan: leave early'), undefined, 'a lower-case lead is not a name')
  t.equal(turnSpeaker('Caroline:no space'), undefined)
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
