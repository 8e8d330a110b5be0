// BM25 over keyword-search candidates (bm25.ts): Postgres's text forms parsed, and the
// ranking rules (rare words weigh more, long turns less, the selecting words decide which
// rows are scored). The texts below are what Postgres prints (checked on PGlite).
import t from 'tap'
import { CONTEXT_WEIGHT, bm25, lengthOf, parseTermQuery, parseTsvector, termMatches } from './bm25.ts'

t.test('parseTsvector: each lexeme with its number of positions', async t => {
  t.same([...parseTsvector("'a':3 'adopted':2 'dog':4 'we':1")], [['a', 1], ['adopted', 1], ['dog', 1], ['we', 1]])
  t.same([...parseTsvector("'and':6 'blue':2,10 'door':3,8")], [['and', 1], ['blue', 2], ['door', 2]])
  t.same([...parseTsvector("'x':1A,2B,3")], [['x', 2]], 'weights are not positions; the unlettered one (D) is context')
  t.same([...parseTsvector("'dog' 'cat'")], [['dog', 1], ['cat', 1]], 'stripped: one each')
  t.same([...parseTsvector('')], [])
})

t.test('parseTsvector: with weights, a word only in the context (D, printed bare) counts 0', async t => {
  const doc = parseTsvector("'hotel':3A 'how':7 'long':8,2A 'stuck':9 'tiny':2A")
  t.same([...doc], [['hotel', 1], ['how', 0], ['long', 1], ['stuck', 0], ['tiny', 1]])
  t.ok(Math.abs(lengthOf(doc) - (3 + 2 * CONTEXT_WEIGHT)) < 1e-9, 'context lexemes count at CONTEXT_WEIGHT in the length')
})

t.test('lengthOf: date words (numbers only in the context) add nothing to a turn\'s length', async t => {
  const plain = parseTsvector("'race':3A 'ran':2A")
  const dated = parseTsvector("'2023':6 '202305':5 '20230501':7 '20230502':8 'race':3A 'ran':2A")
  t.equal(lengthOf(dated), lengthOf(plain))
})

t.test('parseTsvector: doubled quotes and backslashes are the characters themselves', async t => {
  t.same([...parseTsvector("'it''s':1 'a\\\\b':2 'c':3")], [["it's", 1], ['a\\b', 1], ['c', 1]])
})

t.test('parseTermQuery: a whole word, a prefix, a word the parser split', async t => {
  t.same(parseTermQuery("'dog'"), { parts: [{ lexeme: 'dog', prefix: false }] })
  t.same(parseTermQuery("'adopt':*"), { parts: [{ lexeme: 'adopt', prefix: true }] })
  t.same(parseTermQuery("'o' <-> 'brien'"), { parts: [{ lexeme: 'o', prefix: false }, { lexeme: 'brien', prefix: false }] })
  t.same(parseTermQuery(''), { parts: [] }, 'a word with no lexeme')
})

t.test('termMatches: a prefix matches every lexeme it starts; a split word needs all its parts', async t => {
  const doc = parseTsvector("'adopted':2 'adopting':5 'dog':4 'o':6")
  t.same(termMatches(doc, parseTermQuery("'adopt':*")), ['adopted', 'adopting'])
  t.same(termMatches(doc, parseTermQuery("'dog'")), ['dog'])
  t.same(termMatches(doc, parseTermQuery("'do'")), [], 'a whole word is not a prefix')
  t.same(termMatches(doc, parseTermQuery("'o' <-> 'brien'")), [], 'one part missing')
  t.same(termMatches(doc, parseTermQuery('')), [])
})

const rows = (...texts: string[]): Array<{ row: string, doc: Map<string, number> }> =>
  texts.map(text => ({ row: text, doc: new Map(text.split(' ').map(w => [w, 1])) }))
const terms = (...ws: string[]): ReturnType<typeof parseTermQuery>[] => ws.map(w => parseTermQuery(`'${w}'`))

t.test('bm25: a turn with the rare word ranks above one with the common word', async t => {
  const scored = bm25({ rows: rows('we saw a zebra', 'we saw rain', 'rain again', 'rain today'), terms: terms('zebra', 'rain'), n: 4, selecting: [0, 1], dfFloor: [] }).scored
  t.equal(scored.sort((a, b) => b.score - a.score)[0].row, 'we saw a zebra')
  t.equal(scored.length, 4, 'every turn holding a word is scored')
})

t.test('bm25: of two turns with the same words, the shorter ranks first', async t => {
  const scored = bm25({ rows: rows('dog park', 'dog park on a long sunny afternoon walk'), terms: terms('dog'), n: 10, selecting: [0], dfFloor: [] }).scored
  t.equal(scored.sort((a, b) => b.score - a.score)[0].row, 'dog park')
})

t.test('bm25: only rows holding a selecting word are scored (the others were another search\'s candidates)', async t => {
  const scored = bm25({ rows: rows('zebra here', 'only rain'), terms: terms('zebra', 'rain'), n: 10, selecting: [0], dfFloor: [] }).scored
  t.same(scored.map(s => s.row), ['zebra here'])
})

t.test('bm25: a common word\'s count is at least its floor, so it weighs less', async t => {
  const input = { rows: rows('rain zebra', 'rain'), terms: terms('zebra', 'rain'), n: 1000, selecting: [0, 1] }
  const alone = bm25({ ...input, dfFloor: [] }).scored.find(s => s.row === 'rain')?.score ?? 0
  const floored = bm25({ ...input, dfFloor: [0, 600] }).scored.find(s => s.row === 'rain')?.score ?? 0
  t.ok(floored < alone, `${floored} < ${alone}`)
})

t.test('bm25: repeats add only the tie-breaker (0.01 an occurrence)', async t => {
  const docs = [{ row: 'twice', doc: new Map([['blue', 2], ['sky', 1]]) }, { row: 'once', doc: new Map([['blue', 1], ['sea', 1]]) }]
  const [a, b] = bm25({ rows: docs, terms: terms('blue'), n: 10, selecting: [0], dfFloor: [] }).scored
  t.equal(Math.round((a.score - b.score) * 1000) / 1000, 0.01)
})

t.test('bm25: each term\'s document count, exact for a selecting term, at least its floor for another', async t => {
  const { df } = bm25({ rows: rows('rain zebra', 'rain', 'zebra'), terms: terms('zebra', 'rain'), n: 100, selecting: [0], dfFloor: [0, 40] })
  t.same(df, [2, 40])
})

t.test('bm25: a word the turn says ranks above the same word only in what it answers', async t => {
  const docs = [
    { row: 'context', doc: parseTsvector("'nights':1A 'two':2A 'long':5 'stuck':6") },
    { row: 'own', doc: parseTsvector("'stuck':1A 'again':2A 'today':3A") },
  ]
  const scored = bm25({ rows: docs, terms: terms('stuck'), n: 50, selecting: [0], dfFloor: [] }).scored.sort((a, b) => b.score - a.score)
  t.same(scored.map(s => s.row), ['own', 'context'], 'both found; the own word first')
  t.ok(scored[1].score > 0, 'the context match still scores')
})

t.test('bm25: an answer holding a rare word only in its context outranks a turn with a common word', async t => {
  const docs = [
    { row: 'answer', doc: parseTsvector("'nights':1A 'hotel':2A 'stuck':5") },
    ...Array.from({ length: 6 }, (_, i) => ({ row: `common ${i}`, doc: parseTsvector(`'airport':1A 'day${i}':2A`) })),
  ]
  const scored = bm25({ rows: docs, terms: terms('stuck', 'airport'), n: 60, selecting: [0, 1], dfFloor: [0, 40] }).scored.sort((a, b) => b.score - a.score)
  t.equal(scored[0].row, 'answer')
})
