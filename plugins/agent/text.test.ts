// The agent reads reasoning in model output the way chat does: no tag ever reaches an answer.
import t from 'tap'
import { splitThinking as chatSplit } from '../chat/think.ts'
import { splitThinking } from './text.ts'

t.test('think-style tags never reach the answer, and agent and chat agree', async t => {
  const cases = ['<think>a</think>Answer', 'Answer</think>', '<reflection>r</reflection>Final', '<THINK>x</THINK> y', '<think>unclosed']
  for (const text of cases) {
    const { answer, thinking } = splitThinking(text, 'native')
    t.notMatch(answer, /<\/?(think|thinking|reasoning|reflection)>/i, text)
    const chat = chatSplit(text, 'native')
    t.same({ answer, thinking }, { answer: chat.answer, thinking: chat.thinking }, text)
  }
  t.same(splitThinking('<reflection>checked</reflection>Final'), { answer: 'Final', thinking: 'checked' })
})
