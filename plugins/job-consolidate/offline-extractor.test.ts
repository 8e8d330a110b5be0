// The offline extractor: quality targets on the labelled sets, and the behaviours the
// consolidation job relies on (claims in the third person, certainty, the speaker as
// "User", pasted recall blocks and small talk ignored).
import t from 'tap'
import { OfflineExtractor } from './offline-extractor.ts'
import { EXTRACTION_SET } from '../../bench/fixtures/extraction-set.ts'
import { EXTRACTION_HELDOUT } from '../../bench/fixtures/extraction-heldout.ts'
import { scoreExtractor } from '../../bench/fixtures/extraction-score.ts'
import { isSmallTalk, stripRecalledMemory } from './junk.ts'

const ex = new OfflineExtractor()
const one = async (text: string): ReturnType<OfflineExtractor['extract']> => await ex.extract([{ id: 't1', content: text }])

t.test('targets on the labelled sets: entities F1 >= 0.85, facts F1 >= 0.7, no fact from small talk', async t => {
  t.ok(EXTRACTION_SET.length >= 60, 'at least 60 labelled turns')
  for (const [name, set] of [['development', EXTRACTION_SET], ['held-out', EXTRACTION_HELDOUT]] as const) {
    const s = await scoreExtractor(ex, set)
    t.ok(s.entities.f1 >= 0.85, `${name}: entities F1 ${s.entities.f1.toFixed(3)}`)
    t.ok(s.facts.f1 >= 0.7, `${name}: facts F1 ${s.facts.f1.toFixed(3)}`)
    t.equal(s.junk_facts, 0, `${name}: junk facts`)
  }
})

t.test('first-person facts are claims about "The user" with the speaker as the User entity', async t => {
  const out = await one('I work at Initech and my sister Jane lives in Lisbon.')
  t.same(out.facts.map(f => f.claim).sort(), ['Jane lives in Lisbon.', "The user's sister is Jane.", 'The user works at Initech.'].sort())
  t.ok(out.entities.some(e => e.name === 'User' && e.type === 'Person'))
  t.ok(out.relationships.some(r => r.source === 'User' && r.target === 'Jane' && r.type === 'sister'))
  t.equal(out.facts.find(f => f.predicate === 'works_at')?.turn, 0, 'the source turn is kept')
})

t.test('certainty sets confidence: hedged lower than plain, corrections highest', async t => {
  const plain = (await one('I live in Oslo.')).facts[0]
  const hedged = (await one('I think I live in Oslo now.')).facts[0]
  const sure = (await one('Actually, I live in Oslo.')).facts[0]
  t.ok(hedged.confidence < plain.confidence && plain.confidence < sure.confidence, `${hedged.confidence} < ${plain.confidence} < ${sure.confidence}`)
})

t.test('the user\'s own name is an alias of User, not a second person', async t => {
  const out = await one('My name is Ada Lovelace.')
  t.same(out.entities.map(e => e.name), ['User'])
  t.same(out.entities[0].aliases, ['Ada Lovelace'])
})

t.test('a pasted recall block and small talk give nothing', async t => {
  const pasted = 'Relevant memory (from earlier conversations):\nKnown facts:\n- The user works at Initech.\n\nthanks!'
  t.same((await one(pasted)).facts, [])
  t.equal(stripRecalledMemory(`${pasted}\nI live in Rome.`).trim(), 'thanks!\nI live in Rome.')
  for (const s of ['Hello there!', 'How do I reset my password?', 'Can you write me a poem?', "I'm fine, thanks", 'ok', 'Thank you so much!']) t.ok(isSmallTalk(s), s)
  for (const s of ['I work at Initech.', 'Thanks, and by the way I moved to Rome.']) t.notOk(isSmallTalk(s), s)
})

t.test('a liked thing is a thing: a clause after "I like" ("the effects are", "connection it brings") is no `likes` fact', async t => {
  const liked = async (text: string): Promise<string[]> => (await one(text)).facts.filter(f => f.predicate === 'likes').map(f => f.object)
  t.same(await liked('I love pottery and live music.'), ['pottery', 'live music'])
  t.same(await liked('I love the connection it brings.'), [])
  t.same(await liked('I really like the effects are.'), [])
  t.same(await liked('I like it as well.'), [])
})

t.test('a liked thing cut short, pointed at, or named only as "them" is no `likes` fact; a whole one is', async t => {
  const liked = async (text: string): Promise<string[]> => (await one(text)).facts.filter(f => f.predicate === 'likes').map(f => f.object)
  t.same(await liked('I love going on road trips with my family.'), [], 'the verb cut from its object')
  t.same(await liked('I love to help.'), [])
  t.same(await liked('I love this series.'), [])
  t.same(await liked('I really like the idea.'), [])
  t.same(await liked('I also like holding them.'), [])
  t.same(await liked('I love reading, hiking and live music.'), ['reading', 'hiking', 'live music'])
})

t.test('"I\'m learning a ton" is an amount, not a thing learnt; "I\'m learning German" is', async t => {
  const learning = async (text: string): Promise<string[]> => (await one(text)).facts.filter(f => f.predicate === 'learning').map(f => f.object)
  t.same(await learning("It's all a process and I'm learning a ton."), [])
  t.same(await learning("I'm learning German now."), ['German'])
})

t.test('"when I was a kid" and "I am a part of" give no job title', async t => {
  const titles = async (text: string): Promise<string[]> => (await one(text)).facts.filter(f => f.predicate === 'job_title').map(f => f.object)
  t.same(await titles('I used to go riding with my dad when I was a kid.'), [])
  t.same(await titles('I asked my friends to join the support group I am a part of.'), [])
  t.same(await titles("I'm a nurse at the city hospital."), ['nurse'])
})
