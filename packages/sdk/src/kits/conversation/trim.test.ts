import t from 'tap'
import type { Message } from '../../contracts/provider.ts'
import { capHistory, estimateTokens, fitToBudget, promptBudget, turnsOf } from './trim.ts'
import { DEFAULT_CAPABILITIES } from '../provider/index.ts'

const sys: Message = { role: 'system', content: 'S'.repeat(40) }
const u = (n: number): Message => ({ role: 'user', content: `u${n} `.padEnd(80, '.') })
const a = (n: number): Message => ({ role: 'assistant', content: `a${n} `.padEnd(80, '.') })
const call = (n: number): Message => ({ role: 'assistant', content: '', tool_calls: [{ id: `c${n}`, name: 'calc', arguments: { x: n } }] })
const res = (n: number): Message => ({ role: 'tool', name: 'calc', tool_call_id: `c${n}`, content: `r${n}`.padEnd(80, '.') })

// Budgets below are literal numbers from these sizes, not computed by the module under test.
t.test('a message is estimated at 4 characters a token plus 4 for the message', async t => {
  t.equal(estimateTokens(sys), 40 / 4 + 4, 'the system prompt: 14')
  t.equal(estimateTokens(u(1)), 80 / 4 + 4, 'a user message: 24')
  t.equal(estimateTokens(call(4)), Math.ceil(('calc'.length + '{"x":4}'.length + 16) / 4) + 4, 'a tool call counts its name, arguments and 16 more: 11')
  t.equal(estimateTokens(res(1)), Math.ceil((80 + 'calc'.length) / 4) + 4, 'a tool result counts its name: 25')
  t.equal(estimateTokens({ role: 'user', content: 'abcde' }), 2 + 4, 'rounded up')
})

t.test('turns start at user messages; tool calls stay with their results', async t => {
  const turns = turnsOf([u(1), call(1), res(1), a(1), u(2), a(2)])
  t.equal(turns.length, 2)
  t.same(turns[0].map(m => m.role), ['user', 'assistant', 'tool', 'assistant'])
})

t.test('nothing is dropped when it fits', async t => {
  const all = [sys, u(1), a(1), u(2)]
  t.same(fitToBudget(all, { pinnedHead: 1, pinnedFrom: 3, budget: 10_000 }), { messages: all, droppedTurns: 0 })
})

t.test('oldest whole turns go first; system prompt and the current turn stay', async t => {
  const history = [u(1), call(1), res(1), a(1), u(2), a(2), u(3), a(3)]
  const current = [u(4), call(4), res(4)]
  const all = [sys, ...history, ...current]
  // sys 14 + current (24 + 11 + 25) + one old turn of two messages (48) = 122; two old turns would be 170.
  const budget = 150
  const { messages, droppedTurns } = fitToBudget(all, { pinnedHead: 1, pinnedFrom: 1 + history.length, budget })
  t.equal(droppedTurns, 2)
  t.same(messages, [sys, u(3), a(3), ...current])
})

t.test('a turn with a tool call is dropped whole, never leaving an orphan result', async t => {
  const history = [u(1), call(1), res(1), a(1), u(2), a(2)]
  const all = [sys, ...history, u(3)]
  // 14 + 24 + 11 + 25 + 24 + 24 + 24 + 24 = 170 in all: one short, so the oldest turn (with its tool call) goes.
  const budget = 169
  const { messages } = fitToBudget(all, { pinnedHead: 1, pinnedFrom: 1 + history.length, budget })
  t.same(messages, [sys, u(2), a(2), u(3)])
})

t.test('when even the pinned parts do not fit they are sent as they are', async t => {
  const all = [sys, u(1), a(1), u(2)]
  t.same(fitToBudget(all, { pinnedHead: 1, pinnedFrom: 3, budget: 1 }).messages, [sys, u(2)])
})

t.test('the budget leaves room for the answer and the tool definitions', async t => {
  t.equal(promptBudget({ ...DEFAULT_CAPABILITIES, context_window: 4096 }), 4096 - 1024)
  t.equal(promptBudget({ ...DEFAULT_CAPABILITIES, context_window: 1000, max_output_tokens: 100 }), 900)
  const tools = [{ name: 'x', description: 'd'.repeat(400), input_schema: {} }]
  t.ok(promptBudget({ ...DEFAULT_CAPABILITIES, context_window: 1000, max_output_tokens: 100 }, tools) < 800)
})

t.test('stored history is capped by whole turns', async t => {
  const h = [u(1), call(1), res(1), a(1), u(2), a(2), u(3), a(3)]
  t.same(capHistory(h, 4), [u(2), a(2), u(3), a(3)])
  t.same(capHistory(h, 100), h)
  t.same(capHistory(h, 1), [u(3), a(3)], 'the newest turn is kept even past the cap')
})
