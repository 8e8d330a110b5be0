import t from 'tap'
import { Hooks } from './hooks.ts'
import '../contracts/index.ts'

t.test('running a point nobody declared throws, listing the declared ones', async t => {
  const h = new Hooks()
  h.declare('chat:request')
  await t.rejects(h.run('tool:before', { tool: 'x', arguments: {} }), /Unknown hook point "tool:before"; declared hook points: chat:request/)
})

t.test('a subscription to an undeclared point is reported, not fatal', async t => {
  const h = new Hooks()
  h.declare('tool:before')
  h.on('tool:before', () => undefined)
  h.on('agent:step', () => undefined)
  t.same(h.undeclared(), ['agent:step'])
})

t.test('handlers run in registration order and may replace the payload', async t => {
  const h = new Hooks()
  h.declare('tool:before')
  const order: string[] = []
  h.on('tool:before', p => { order.push('a'); return { ...p, arguments: { n: Number(p.arguments.n) + 1 } } })
  h.on('tool:before', () => { order.push('b') })
  h.on('tool:before', async p => { order.push('c'); return { ...p, arguments: { n: Number(p.arguments.n) * 10 } } })
  t.same(await h.run('tool:before', { tool: 't', arguments: { n: 1 } }), { tool: 't', arguments: { n: 20 } })
  t.same(order, ['a', 'b', 'c'])
})

t.test('has() tells whether a point has handlers', async t => {
  const h = new Hooks()
  h.declare('chat:request')
  t.equal(h.has('chat:request'), false)
  h.on('chat:request', () => undefined)
  t.equal(h.has('chat:request'), true)
})
