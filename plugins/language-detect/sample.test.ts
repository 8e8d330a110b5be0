// Detection reads a bounded sample of a long text, so a burst of long texts costs the
// request thread (where health and every other route answer) a few ms each, not 100.
import t from 'tap'
import { detectWith, sampleOf, SAMPLE_CHARS } from './detector.ts'
import type { DetectionBackend } from './backend.ts'

t.test('a 100,000-character text: the backend and the cues see only the sample', async t => {
  const seen: number[] = []
  const backend: DetectionBackend = { guess: (text) => { seen.push(text.length); return { language: 'de', probability: 0.99, reliable: true } } }
  const long = 'Das ist ein ganz normaler deutscher Satz über das Wetter. '.repeat(1800)
  t.ok(long.length > 100_000)
  const d = await detectWith(backend, long)
  t.equal(d.language, 'de')
  t.ok(seen[0] <= SAMPLE_CHARS, `the backend got ${seen[0]} characters`)
  t.same(d, await detectWith(backend, sampleOf(long)), 'the answer is the sample\'s')
})

t.test('the sample ends at a space, or at least never inside a surrogate pair', async t => {
  const words = 'wort '.repeat(2000)
  const s = sampleOf(words)
  t.ok(s.length <= SAMPLE_CHARS && !s.endsWith(' ') && s.endsWith('wort'))
  const emoji = '😀'.repeat(3000) // no spaces: cut by length, on a pair boundary
  const e = sampleOf(emoji)
  t.ok(e.length <= SAMPLE_CHARS)
  t.equal(e.length % 2, 0, 'whole pairs only')
  t.equal(sampleOf('short text'), 'short text')
})
