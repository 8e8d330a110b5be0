// Query variants by rules: statement form, synonyms and related words, base forms.
import t from 'tap'
import { baseForm, expandQuery, statementForm, synonymsAndRelated, tableSynonyms } from './rules.ts'

const none = (): string[] => []

t.test('a question becomes a statement: question word and auxiliary dropped', async t => {
  t.equal(statementForm('When did Alex quit his job?'), 'Alex quit his job')
  t.equal(statementForm('How many cats does Rosa have?'), 'cats does Rosa have', 'only a leading auxiliary goes')
  t.equal(statementForm('Alex quit his job'), undefined, 'not a question')
})

t.test('base forms by suffix rules; short or uninflected words have none', async t => {
  t.same(['adopted', 'puppies', 'running', 'glass', 'cat'].map(baseForm), ['adopt', 'puppy', 'runn', undefined, undefined])
})

t.test('the synonym variant carries the content words and their synonyms', async t => {
  const [, synonyms] = expandQuery('Which pet did they get?', 3, w => w === 'pet' ? ['dog', 'cat'] : [])
  t.equal(synonyms, 'pet dog cat', 'function words (they, get) left out')
})

t.test('related words come after the table\'s synonyms, each once; a word in neither has none', async t => {
  t.same(synonymsAndRelated('pet').slice(0, tableSynonyms('pet').length), tableSynonyms('pet'))
  t.equal(new Set(synonymsAndRelated('pet')).size, synonymsAndRelated('pet').length)
  t.ok(synonymsAndRelated('violin').includes('cello'), 'a word the table does not hold: its related words')
  t.same(synonymsAndRelated('qwzxv'), [])
})

t.test('at most max variants, none equal to the query or to each other; max 0 gives none', async t => {
  const all = expandQuery('When were the puppies adopted?', 3, w => w === 'puppies' ? ['dogs'] : [])
  t.same(all, ['the puppies adopted', 'puppies adopted dogs', 'puppy adopt'])
  t.same(expandQuery('When were the puppies adopted?', 1, none), ['the puppies adopted'])
  t.same(expandQuery('When were the puppies adopted?', 0), [])
  t.same(expandQuery('dogs', 3, none), [], 'nothing to vary')
})
