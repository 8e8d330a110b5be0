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
})

t.test('native reasoning is merged before tag blocks', async t => {
  const r = splitThinking('<think>tagged</think>ok', 'native thoughts')
  t.equal(r.thinking, 'native thoughts\n\ntagged')
  t.equal(r.answer, 'ok')
})

t.test('a tag split across two chunks at every position gives the same result', async t => {
  const texts = [
    '<think>\nLet me add 2 and 2.\n</think>\n\nThe answer is 4.',
    'Before <reasoning>why</reasoning> after </thinking> end',
    'a<b <thinking>x < y</thinking> c<',
    '<REFLECTION>deep</REFLECTION>done',
  ]
  for (const text of texts) {
    const whole = splitThinking(text)
    for (let i = 0; i <= text.length; i++) {
      const r = streamed([text.slice(0, i), text.slice(i)])
      if (r.answer !== whole.answer || r.thinking !== whole.thinking) {
        t.fail(`split at ${i} of ${JSON.stringify(text)}: ${JSON.stringify(r)} vs ${JSON.stringify(whole)}`)
        return
      }
    }
    t.pass(`all ${text.length + 1} split positions agree for ${JSON.stringify(text.slice(0, 20))}`)
  }
})

t.test('one character per chunk, and three-way splits, agree with the whole text', async t => {
  const text = '<think>plan: A then B</think>\nFirst A.<thinking>now B</thinking> Then B.'
  const whole = splitThinking(text)
  t.same(whole, { answer: 'First A. Then B.', thinking: 'plan: A then B\n\nnow B', has_thinking: true })
  t.same((({ answer, thinking }) => ({ answer, thinking }))(streamed([...text])), { answer: whole.answer, thinking: whole.thinking })
  for (let i = 0; i < text.length; i += 3) {
    for (let j = i; j < text.length; j += 5) {
      const r = streamed([text.slice(0, i), text.slice(i, j), text.slice(j)])
      if (r.answer !== whole.answer || r.thinking !== whole.thinking) { t.fail(`split ${i},${j}`); return }
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
