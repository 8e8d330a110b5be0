// The output kit's readers, pinned on literal model replies: what each returns for the
// shapes models actually write (fences, prose around JSON, trailing commas, think blocks).
import t from 'tap'
import { listItems, parseJsonLoose, splitThinking } from './index.ts'

t.test('splitThinking: a closed block is thinking, the rest the answer', async t => {
  t.same(splitThinking('<think>add 2 and 2</think>The answer is 4.'), { answer: 'The answer is 4.', thinking: 'add 2 and 2', has_thinking: true })
})

t.test('splitThinking: native reasoning comes before the extracted block', async t => {
  t.same(splitThinking('<reflection>checked</reflection>Final', 'native'), { answer: 'Final', thinking: 'native\n\nchecked', has_thinking: true })
})

t.test('splitThinking: an unclosed block is all thinking, a stray closing tag is dropped', async t => {
  t.same(splitThinking('<think>cut off mid'), { answer: '', thinking: 'cut off mid', has_thinking: true })
  t.same(splitThinking('Answer</think>'), { answer: 'Answer', thinking: '', has_thinking: false })
  t.same(splitThinking('<THINK>x</THINK> y'), { answer: 'y', thinking: 'x', has_thinking: true })
})

t.test('parseJsonLoose: the whole text, a fenced block, or the span inside prose', async t => {
  t.same(parseJsonLoose('{"a":1}'), { a: 1 })
  t.same(parseJsonLoose('Here you go:\n```json\n{"steps": [1, 2]}\n```\nDone.'), { steps: [1, 2] })
  t.same(parseJsonLoose('Sure! {"pass": false, "issues": ["too short"]} Hope that helps.'), { pass: false, issues: ['too short'] })
  t.same(parseJsonLoose('The list: ["a", "b"] end'), ['a', 'b'])
  t.equal(parseJsonLoose('7'), 7)
})

t.test('parseJsonLoose: trailing commas are forgiven', async t => {
  t.same(parseJsonLoose('{"a": [1, 2,], "b": 3,}'), { a: [1, 2], b: 3 })
})

t.test('parseJsonLoose: JSON inside a think block is not the answer', async t => {
  t.same(parseJsonLoose('<think>maybe {"score": 1}</think>{"score": 9}'), { score: 9 })
  t.equal(parseJsonLoose('<think>{"score": 1}</think>no json here'), undefined)
})

t.test('parseJsonLoose: no JSON gives undefined', async t => {
  t.equal(parseJsonLoose('just words'), undefined)
  t.equal(parseJsonLoose('{broken: json'), undefined)
})

t.test('listItems: numbered, bulleted and "Step n:" lines, markers removed', async t => {
  const text = 'Intro line\n1. first\n2) second\n- third\n* fourth\n• fifth\nStep 6: sixth\n  7: seventh\n\nnot an item'
  t.same(listItems(text), ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh'])
})

t.test('listItems: empty items and plain prose give nothing', async t => {
  t.same(listItems('1. \n- \nno markers here'), [])
})
