// Restriction to the twenty languages and the confidence it leads to.
import t from 'tap'
import { loadCld3 } from './cld3-backend.ts'
import { detectWith } from './detector.ts'
import { restrict } from './restrict.ts'
import { scriptStats } from './script.ts'

const r = (text: string, raw: string) => restrict(text, raw, scriptStats(text))

t.test('an answer inside the twenty, in their script, stands', async t => {
  t.same(r('Der Mensch ist frei', 'de'), { language: 'de', scriptKnown: true, forced: false, certainty: 1 })
})

t.test('related languages map to the nearest of the twenty, decided by cues', async t => {
  t.equal(r('o direito de toda a pessoa', 'gl').language, 'pt')
  t.equal(r('el derecho de toda persona', 'gl').language, 'es')
  t.equal(r('Всеки човек има право на живот', 'mk').language, 'bg')
  t.equal(r('Каждый человек имеет право на жизнь', 'uk').language, 'ru')
  t.equal(r('Ieder mens heeft recht op leven', 'af').language, 'nl')
  t.equal(r('सभी मनुष्यों को गौरव और अधिकारों', 'mr').language, 'hi')
})

t.test('romanised variants are re-decided among Latin-script languages', async t => {
  const x = r('the right of everyone to life', 'hi-Latn')
  t.equal(x.language, 'en')
  t.equal(x.forced, true)
})

t.test('Arabic script: Urdu letters decide between ar and ur', async t => {
  t.equal(r('ہر انسان کو زندگی کا حق ہے', 'fa').language, 'ur')
  t.equal(r('لكل فرد الحق في الحياة', 'fa').language, 'ar')
})

t.test('a script none of the twenty uses gets a near-zero confidence', async t => {
  const b = await loadCld3()
  t.teardown(() => b.dispose?.())
  const d = await detectWith(b, '모든 사람은 생명과 신체의 자유와 안전에 대한 권리를 가진다')
  t.equal(d.raw, 'ko')
  t.ok(d.confidence <= 0.05, `confidence ${d.confidence}`)
})

t.test('short text is less sure than a sentence', async t => {
  const b = await loadCld3()
  t.teardown(() => b.dispose?.())
  const short = await detectWith(b, 'Hallo')
  const long = await detectWith(b, 'Alle Menschen sind frei und gleich an Würde und Rechten geboren.')
  t.equal(long.language, 'de')
  t.ok(long.confidence > 0.95, `sentence ${long.confidence}`)
  t.ok(short.confidence < 0.7, `one word ${short.confidence}`)
})

t.test('text without letters is refused', async t => {
  const b = await loadCld3()
  t.teardown(() => b.dispose?.())
  await t.rejects(detectWith(b, '12345 !!! 3.14'), { statusCode: 400, code: 'AGENT_ERR_LANGUAGE_NO_LETTERS' })
})
