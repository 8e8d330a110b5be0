// The NLLB code list and the lexicon.
import t from 'tap'
import { DETECTION_CODES } from '@agentd/sdk/kits/language'
import { LEXICON, NLLB_LANGUAGES, isNllbCode, joinerFor, nllbFor, suggestion } from './languages.ts'

t.test('202 distinct, well-formed NLLB codes with names', async t => {
  t.equal(NLLB_LANGUAGES.length, 202)
  t.equal(new Set(NLLB_LANGUAGES.map(l => l.code)).size, 202)
  for (const l of NLLB_LANGUAGES) t.ok(/^[a-z]{3}_[A-Z][a-z]{3}$/.test(l.code) && l.name.length > 1, l.code)
})

t.test('the lexicon maps all twenty detection codes to NLLB codes', async t => {
  t.same(Object.keys(LEXICON).sort(), [...DETECTION_CODES].sort())
  for (const code of DETECTION_CODES) t.ok(isNllbCode(LEXICON[code]), `${code} -> ${LEXICON[code]}`)
  t.equal(LEXICON.ar, 'arb_Arab')
  t.equal(LEXICON.sw, 'swh_Latn')
})

t.test('Chinese maps to Traditional or Simplified by the characters used', async t => {
  t.equal(nllbFor('zh', '人人生而自由,在尊严和权利上一律平等。他们赋有理性和良心'), 'zho_Hans')
  t.equal(nllbFor('zh', '人人生而自由,在尊嚴和權利上一律平等。他們賦有理性和良心'), 'zho_Hant')
  t.equal(nllbFor('fr', 'Bonjour'), 'fra_Latn')
})

t.test('ISO codes get a suggestion; unspaced scripts join with nothing', async t => {
  t.equal(suggestion('FR'), 'fra_Latn')
  t.equal(suggestion('klingon'), undefined)
  t.equal(joinerFor('jpn_Jpan'), '')
  t.equal(joinerFor('tha_Thai'), '')
  t.equal(joinerFor('fra_Latn'), ' ')
})
