import t from 'tap'
import { ThinkParser, splitThinking, type ThinkPiece } from './think.ts'

function streamed (chunks: string[]): { answer: string, thinking: string, pieces: ThinkPiece[] } {
  const p = new ThinkParser()
  const pieces: ThinkPiece[] = []
  for (const c of chunks) pieces.push(...p.push(c))
  pieces.push(...p.end())
  const answer = pieces.filter(x => x.kind === 'answer').map(x => x.text).join('')
  const thinking = pieces.filter(x => x.kind === 'thinking').map(x => x.text).join('')
  if (answer !== p.answer || thinking !== p.thinking) throw new Error('streamed pieces do not add up to the parser totals')
  return { answer, thinking, pieces }
}

t.test('each tag kind lands in thinking, the rest is the answer', async t => {
  for (const tag of ['think', 'thinking', 'reasoning', 'reflection', 'THINK', 'Reasoning']) {
    const r = splitThinking(`<${tag}>\nstep one\n</${tag}>\n\nThe answer is 4.`)
    t.same(r, { answer: 'The answer is 4.', thinking: 'step one', has_thinking: true }, tag)
  }
})

t.test('no tags: everything is the answer, has_thinking false', async t => {
  t.same(splitThinking('  just 1 < 2 and a <b>bold</b> claim  '), { answer: 'just 1 < 2 and a <b>bold</b> claim', thinking: '', has_thinking: false })
})

t.test('several blocks are joined by a blank line; answer text around them is kept', async t => {
  const r = splitThinking('<think>a</think>Hello <reflection> b </reflection>world')
  t.equal(r.thinking, 'a\n\nb')
  t.equal(r.answer, 'Hello world')
})

t.test('an unclosed leading <think> makes the whole rest thinking', async t => {
  t.same(splitThinking('<think>I was cut off mid thou'), { answer: '', thinking: 'I was cut off mid thou', has_thinking: true })
  t.same(splitThinking('<think>cut at the close </thi'), { answer: '', thinking: 'cut at the close', has_thinking: true }, 'a truncated closing tag is dropped')
})

t.test('a stray closing tag is dropped from the answer', async t => {
  t.same(splitThinking('Answer</think> here'), { answer: 'Answer here', thinking: '', has_thinking: false })
  t.same(splitThinking('Answer </think> here'), { answer: 'Answer here', thinking: '', has_thinking: false }, 'its surrounding whitespace collapses to one run')
})

t.test('native reasoning is merged before tag blocks', async t => {
  const r = splitThinking('<think>tagged</think>ok', 'native thoughts')
  t.equal(r.thinking, 'native thoughts\n\ntagged')
  t.equal(r.answer, 'ok')
})

// Pinned expectations (not only "same as the whole text"), so a parser that is wrong the
// same way whole and streamed still fails.
const CASES: Array<[string, { answer: string, thinking: string }]> = [
  ['<think>\nLet me add 2 and 2.\n</think>\n\nThe answer is 4.', { answer: 'The answer is 4.', thinking: 'Let me add 2 and 2.' }],
  ['Before <reasoning>why</reasoning> after</thinking> end', { answer: 'Before after end', thinking: 'why' }],
  ['a<b <thinking>x < y</thinking> c<', { answer: 'a<b c<', thinking: 'x < y' }],
  ['<REFLECTION>deep</REFLECTION>done', { answer: 'done', thinking: 'deep' }],
  // A stray closing tag between spaces: one space stays.
  ['Answer </think> here', { answer: 'Answer here', thinking: '' }],
  ['x <think>a</think> <think>b</think> y', { answer: 'x y', thinking: 'a\n\nb' }],
  // An unclosed leading <think>: the whole rest is thinking.
  ['<think>I was cut off mid thou', { answer: '', thinking: 'I was cut off mid thou' }],
  // Cut inside the closing tag: the partial tag is dropped.
  ['<think>cut at the close </thi', { answer: '', thinking: 'cut at the close' }],
  // An unclosed block after an answer.
  ['<thinking>plan</thinking>Answer <think>more', { answer: 'Answer', thinking: 'plan\n\nmore' }],
]

t.test('a tag split across two chunks at every position gives the pinned result', async t => {
  for (const [text, expected] of CASES) {
    t.same((({ answer, thinking }) => ({ answer, thinking }))(splitThinking(text)), expected, `whole: ${JSON.stringify(text)}`)
    for (let i = 0; i <= text.length; i++) {
      const r = streamed([text.slice(0, i), text.slice(i)])
      if (r.answer !== expected.answer || r.thinking !== expected.thinking) {
        t.fail(`split at ${i} of ${JSON.stringify(text)}: ${JSON.stringify({ answer: r.answer, thinking: r.thinking })}, expected ${JSON.stringify(expected)}`)
        return
      }
    }
    t.pass(`all ${text.length + 1} split positions give ${JSON.stringify(expected)}`)
  }
})

/** A provider stream: native reasoning ('native') and content ('text') in arrival order. */
type Event = ['native' | 'text', string]

function replay (events: Event[]): { answer: string, thinking: string } {
  const p = new ThinkParser()
  const pieces: ThinkPiece[] = []
  for (const [kind, text] of events) pieces.push(...(kind === 'native' ? p.native(text) : p.push(text)))
  pieces.push(...p.end())
  const answer = pieces.filter(x => x.kind === 'answer').map(x => x.text).join('')
  const thinking = pieces.filter(x => x.kind === 'thinking').map(x => x.text).join('')
  if (answer !== p.answer || thinking !== p.thinking) throw new Error('streamed pieces do not add up to the parser totals')
  return { answer, thinking }
}

const NATIVE_CASES: Array<[Event[], { answer: string, thinking: string }]> = [
  [[['native', 'native first'], ['text', '<think>tagged</think>ok']], { answer: 'ok', thinking: 'native first\n\ntagged' }],
  [[['native', 'part one '], ['native', 'part two'], ['text', 'Answer <think>aside</think> done']], { answer: 'Answer done', thinking: 'part one part two\n\naside' }],
  [[['text', '<think>a</think>'], ['native', 'b'], ['text', 'c']], { answer: 'c', thinking: 'a\n\nb' }],
  // Native reasoning arriving while a possible tag is held back.
  [[['text', 'Hello <thi'], ['native', 'native'], ['text', 'nk>x</think> world']], { answer: 'Hello world', thinking: 'native\n\nx' }],
  [[['native', 'why'], ['text', '<think>unclosed to the end']], { answer: '', thinking: 'why\n\nunclosed to the end' }],
]

t.test('native reasoning interleaved with tags: every event split at every position gives the pinned result', async t => {
  for (const [events, expected] of NATIVE_CASES) {
    t.same(replay(events), expected, `unsplit: ${JSON.stringify(events)}`)
    let runs = 0
    for (const [e, [kind, text]] of events.entries()) {
      for (let i = 0; i <= text.length; i++) {
        const split: Event[] = [...events.slice(0, e), [kind, text.slice(0, i)], [kind, text.slice(i)], ...events.slice(e + 1)]
        const r = replay(split)
        runs++
        if (r.answer !== expected.answer || r.thinking !== expected.thinking) {
          t.fail(`event ${e} split at ${i}: ${JSON.stringify(r)}, expected ${JSON.stringify(expected)}`)
          return
        }
      }
    }
    t.pass(`${runs} splits give ${JSON.stringify(expected)}`)
  }
})

t.test('one character per chunk, and three-way splits, agree with the whole text', async t => {
  const text = '<think>plan: A then B</think>\nFirst A.<thinking>now B</thinking> Then B.'
  const whole = splitThinking(text)
  t.same(whole, { answer: 'First A. Then B.', thinking: 'plan: A then B\n\nnow B', has_thinking: true })
  t.same((({ answer, thinking }) => ({ answer, thinking }))(streamed([...text])), { answer: 'First A. Then B.', thinking: 'plan: A then B\n\nnow B' })
  for (let i = 0; i < text.length; i += 3) {
    for (let j = i; j < text.length; j += 5) {
      const r = streamed([text.slice(0, i), text.slice(i, j), text.slice(j)])
      if (r.answer !== 'First A. Then B.' || r.thinking !== 'plan: A then B\n\nnow B') { t.fail(`split ${i},${j}: ${JSON.stringify(r)}`); return }
    }
  }
})

t.test('answer text is released as soon as it cannot be part of a tag', async t => {
  const p = new ThinkParser()
  t.same(p.push('Hello wor'), [{ kind: 'answer', text: 'Hello wor' }])
  t.same(p.push('ld <thi'), [{ kind: 'answer', text: 'ld' }], 'the possible tag and the space before it are held')
  t.same(p.push('nk>hm'), [{ kind: 'thinking', text: 'hm' }])
  t.same(p.push('m</think> bye'), [{ kind: 'thinking', text: 'm' }, { kind: 'answer', text: ' bye' }], 'whitespace around the block collapses to one run')
  t.same(p.end(), [])
  t.equal(p.answer, 'Hello world bye')
})

// ---- pieces as they are handed out (issue 22, mutation testing) --------------------

t.test('one push hands out one piece per kind in a row: answer text around a dropped stray tag is one piece', async t => {
  const p = new ThinkParser()
  t.same(p.push('Answer </think> here'), [{ kind: 'answer', text: 'Answer here' }])
})

t.test('a "<" that cannot start a tag is released at once, outside and inside a block', async t => {
  const p = new ThinkParser()
  t.same(p.push('1 <b 2'), [{ kind: 'answer', text: '1 <b 2' }])
  t.same(p.push('<think>a < b'), [{ kind: 'thinking', text: 'a < b' }])
  t.same(p.end(), [])
})

t.test('an unclosed block with a "<" that is no closing tag keeps all of it as thinking', async t => {
  const p = new ThinkParser()
  p.push('<think>x < y')
  t.same(p.end(), [])
  t.equal(p.thinking, 'x < y')
  const q = new ThinkParser()
  t.same(q.push('<think>abc</thi'), [{ kind: 'thinking', text: 'abc' }], 'a possible closing tag is held')
  t.same(q.end(), [], 'and dropped when the stream ends there')
  t.equal(q.thinking, 'abc')
})

t.test('whitespace alone is held, not handed out as a piece', async t => {
  const p = new ThinkParser()
  t.same(p.push('Hello'), [{ kind: 'answer', text: 'Hello' }])
  t.same(p.push('   '), [])
  t.same(p.push('world'), [{ kind: 'answer', text: '   world' }])
  t.same(p.push('  \n'), [])
  t.same(p.end(), [], 'trailing whitespace is dropped')
  t.equal(p.answer, 'Hello   world')
})

t.test('native reasoning is handed out as thinking pieces; after answer text, new native reasoning is a new block', async t => {
  const p = new ThinkParser()
  t.same(p.native('first'), [{ kind: 'thinking', text: 'first' }])
  t.same(p.native(' more'), [{ kind: 'thinking', text: ' more' }], 'the same block goes on')
  t.same(p.push('Answer.'), [{ kind: 'answer', text: 'Answer.' }])
  t.same(p.native('second'), [{ kind: 'thinking', text: '\n\nsecond' }])
  t.same(p.native(''), [])
  t.equal(p.thinking, 'first more\n\nsecond')
})

t.test('"A <think>..</think> B": the whitespace before the block wins; without it, the one after', async t => {
  t.equal(splitThinking('A <think>x</think> B').answer, 'A B')
  t.equal(splitThinking('A<think>x</think>  B').answer, 'A  B')
  t.equal(splitThinking('A <think>x</think>B').answer, 'A B')
  const p = new ThinkParser()
  p.push('A ')
  p.push('<think>x</think>')
  t.same(p.push(' B'), [{ kind: 'answer', text: ' B' }], 'streamed: one run of whitespace')
})

t.test('whitespace split across pushes is kept whole, in the answer and in a block', async t => {
  const p = new ThinkParser()
  p.push('Hello ')
  t.same(p.push('  world'), [{ kind: 'answer', text: '   world' }], 'the held space and the new ones')
  p.push('<think>a ')
  t.same(p.push('  b</think>'), [{ kind: 'thinking', text: '   b' }])
  p.end()
  t.equal(p.answer, 'Hello   world')
  t.equal(p.thinking, 'a   b')
})

t.test('whitespace after a block that arrives in pieces: the run before the block still wins', async t => {
  const p = new ThinkParser()
  p.push('A <think>x</think> ')
  t.same(p.push(' B'), [{ kind: 'answer', text: ' B' }])
  p.end()
  t.equal(p.answer, 'A B')
})

t.test('an empty push does not end native reasoning: the next native text goes on the same block', async t => {
  const p = new ThinkParser()
  p.native('one')
  t.same(p.push(''), [])
  t.same(p.native(' two'), [{ kind: 'thinking', text: ' two' }])
  t.equal(p.thinking, 'one two')
})

t.test('empty native reasoning inside a tag block changes nothing', async t => {
  const p = new ThinkParser()
  p.push('<think>a')
  t.same(p.native(''), [])
  p.push(' b</think>')
  t.equal(p.thinking, 'a b', 'still one block')
})

t.test('end() leaves nothing held: text pushed after it starts clean', async t => {
  const p = new ThinkParser()
  p.push('x <thi')
  p.native('a')
  t.same(p.end(), [{ kind: 'answer', text: ' <thi' }], 'the held partial tag is answer text after all')
  t.same(p.native('b'), [{ kind: 'thinking', text: '\n\nb' }], 'native reasoning after the end is a new block')
  t.same(p.push('y'), [{ kind: 'answer', text: 'y' }], 'nothing from before the end comes with it')
  t.equal(p.answer, 'x <thiy')
  t.equal(p.thinking, 'a\n\nb')
})

t.test('a closing tag cut off in capitals at the end of an unclosed block is dropped too', async t => {
  t.same(splitThinking('<THINK>abc</THI'), { answer: '', thinking: 'abc', has_thinking: true })
})
