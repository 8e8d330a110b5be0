// Sentence-boundary chunking and joining back.
import t from 'tap'
import { splitText } from './chunk.ts'

const words = (s: string): number => s.split(/\s+/u).filter(w => w !== '').length

t.test('short text is one piece and comes back as it was', async t => {
  const s = splitText('Hello world. How are you?', 100)
  t.same(s.pieces, ['Hello world. How are you?'])
  t.equal(s.join(['Bonjour le monde. Comment ça va ?']), 'Bonjour le monde. Comment ça va ?')
})

t.test('long text splits at sentence ends, each piece within the budget', async t => {
  const text = 'One two three four. Five six seven eight. Nine ten eleven twelve. Thirteen fourteen.'
  const s = splitText(text, 8, { measure: words })
  t.same(s.pieces, ['One two three four. Five six seven eight.', 'Nine ten eleven twelve. Thirteen fourteen.'])
  for (const p of s.pieces) t.ok(words(p) <= 8)
  t.equal(s.join(s.pieces), text, 'identity translation rebuilds the text')
})

t.test('line breaks are hard boundaries and come back exactly', async t => {
  const text = '  Title\n\nFirst paragraph. Second sentence.\n  Indented line.\n'
  const s = splitText(text, 100)
  t.same(s.pieces, ['Title', 'First paragraph. Second sentence.', 'Indented line.'])
  t.equal(s.join(s.pieces.map(p => p.toUpperCase())), '  TITLE\n\nFIRST PARAGRAPH. SECOND SENTENCE.\n  INDENTED LINE.\n')
})

t.test('a sentence longer than the budget is cut at clauses, then between words', async t => {
  const text = 'alpha beta gamma, delta epsilon zeta, eta theta iota kappa lambda mu nu xi omicron pi'
  const s = splitText(text, 4, { measure: words })
  for (const p of s.pieces) t.ok(words(p) <= 4, `"${p}" within 4 words`)
  t.equal(s.pieces.join(' '), text, 'nothing lost or duplicated')
})

t.test('Chinese sentences are found without spaces; unspaced targets join with nothing', async t => {
  const zh = '人人生而自由。在尊严和权利上一律平等。他们赋有理性和良心。'
  const s = splitText(zh, 12, { joiner: '' })
  t.ok(s.pieces.length >= 2, `split into ${s.pieces.length}`)
  for (const p of s.pieces) t.ok(p.length <= 12)
  t.equal(s.join(s.pieces), zh)
})

t.test('a word longer than the budget is cut by characters', async t => {
  const s = splitText('x'.repeat(25), 10)
  t.same(s.pieces.map(p => p.length), [10, 10, 5])
})

t.test('join refuses a wrong number of pieces', async t => {
  const s = splitText('A. B.', 2)
  t.throws(() => s.join(['only one']))
})
