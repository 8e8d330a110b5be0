// The shipped related-words table (written by scripts/related-words.ts from GloVe vectors).
import t from 'tap'
import { readFileSync } from 'node:fs'
import stem from 'wink-porter2-stemmer'
import { STOPWORDS } from '@agentd/sdk/kits/recall'
import { relatedWords } from './related-words.ts'

t.test('a word\'s related words, nearest first; none for a word the table does not hold', async t => {
  t.same(relatedWords('pet'), ['dog', 'cat', 'animal', 'puppy'])
  t.same(relatedWords('qwzxv'), [])
  t.same(relatedWords('the'), [], 'stop words have none')
  t.same(relatedWords('#'), [], 'the provenance lines are not words')
})

t.test('every line: a lower-case word, one to four related words, none a stop word or the word\'s own inflection', async t => {
  const lines = readFileSync(new URL('./related-words.txt', import.meta.url), 'utf8').trimEnd().split('\n').filter(l => !l.startsWith('#'))
  t.ok(lines.length > 20_000, `${lines.length} words`)
  const bad = lines.filter(line => {
    const [word, ...related] = line.split(' ')
    return !/^[a-z]{3,}$/.test(word) || related.length < 1 || related.length > 4 ||
      related.some(r => !/^[a-z]{3,}$/.test(r) || STOPWORDS.has(r) || stem(r) === stem(word))
  })
  t.same(bad.slice(0, 5), [])
})
