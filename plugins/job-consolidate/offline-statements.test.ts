// The offline extractor's first-person statements and remarks, on sentences shaped like
// LoCoMo's (bench/locomo-extraction.bench.ts measures them on the real conversations).
import t from 'tap'
import { loadNlp } from '@agentd/sdk/kits/memory'
import { inThirdPerson, remark, saysSomething, statements } from './offline-statements.ts'
import { buildClaim } from './extraction.ts'

const nlp = await loadNlp()
const objects = (s: string): string[] => statements(nlp, s).map(x => x.object)

t.test('a first-person clause becomes a third-person verb phrase with its tense', async t => {
  t.same(statements(nlp, 'I went to a LGBTQ support group yesterday'), [{ object: 'went to a LGBTQ support group yesterday', tense: 'past' }])
  t.same(objects("I'm starting a pottery class next month"), ['is starting a pottery class next month'])
})

t.test('clauses about the listener, opinions and vague ones are kept out', async t => {
  t.same(objects("I'm so proud of you for doing that"), [])
  t.same(objects('I think so too, it was fun'), [])
  t.same(objects("I'm not gonna forget a second of it"), [], 'nothing but stop words and fillers')
  t.same(objects('I will be sure to reach out'), [])
})

t.test('"since we last talked" is no content: "I have been keeping busy since we last talked" says nothing', async t => {
  t.same(objects('I have been keeping busy since we last talked'), [])
  t.same(objects('I have been painting mountain landscapes since we last talked'), ['has been painting mountain landscapes since we last talked'])
})

t.test('saysSomething counts the words that carry content', async t => {
  t.equal(saysSomething('has thought about it a lot'), false)
  t.equal(saysSomething('adopted a puppy from the shelter'), true)
  t.equal(saysSomething('adopted a puppy', 3), false)
})

t.test('a sentence about oneself with no "I" clause is a remark, said of the speaker', async t => {
  const r = remark('Hey Nate, my favorite dairy-free treat is this amazing chocolate raspberry tart!')
  t.equal(r, 'my favorite dairy-free treat is this amazing chocolate raspberry tart')
  t.equal(buildClaim('Joanna', 'remark', r ?? '', 'current'), "Joanna's favorite dairy-free treat is this amazing chocolate raspberry tart.")
  t.equal(inThirdPerson('Caroline', "Caroline's", 'The support group has made me feel accepted'), 'The support group has made Caroline feel accepted')
})

t.test('no remark from questions, the listener, a leading "it", or too little', async t => {
  t.equal(remark('What do you think of my new painting of the lake?'), undefined)
  t.equal(remark('Your support means the world to me and my family'), undefined)
  t.equal(remark('It gave me the upper hand over my opponents'), undefined)
  t.equal(remark('Thanks for having my back'), undefined)
  t.equal(remark('The weather in Paris was lovely last week'), undefined, 'not about the speaker')
})

t.test('a negated modal keeps its negation: "couldn\'t" is not conjugated into "coulds"', async t => {
  t.same(objects("I couldn't play or help the team for a month"), ["couldn't play or help the team for a month"])
  t.same(statements(nlp, "I wouldn't change a thing about the garden project")[0]?.object, "wouldn't change a thing about the garden project")
})

t.test('empathy and hedges are replies, not statements: "I can imagine", "I sort of"', async t => {
  t.same(objects('I can imagine those hurdles were tough to deal with'), [])
  t.same(objects('I just sort of made it up on the spot'), [])
})

t.test('no remark from showing or thanking: "check out my painting", "here\'s a pic of my family"', async t => {
  t.equal(remark('Check out my painting for the art show next week'), undefined)
  t.equal(remark("Here's a pic of my family at the lake last summer"), undefined)
  t.equal(remark('I will add it to my list, thanks for the recommendation'), undefined)
  t.equal(remark('Dyed my hair bright blue last week - come see'), undefined)
})

t.test('no remark from a reply to the listener\'s news or news with nothing in it: "glad my advice helped"', async t => {
  t.equal(remark('Glad to hear my support makes a difference'), undefined)
  t.equal(remark('Here ya go, a pic of my cork board from last year'), undefined)
  t.equal(remark('As for me, lots of stuff happened since we last talked'), undefined)
  t.equal(remark('Quite a week since we last talked - something awesome happened to me'), undefined)
})

t.test('news after "since we last talked" is the remark: what comes after the dash', async t => {
  t.equal(remark('Interesting things have happened since we last talked - my sister joined a travel club in my town'), 'my sister joined a travel club in my town')
})
