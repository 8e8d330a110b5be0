import t from 'tap'
import { Hooks } from './hooks.ts'

t.test('an unknown hook point throws, listing the declared ones', async t => {
  const h = new Hooks()
  t.throws(() => { h.on('chat:typo' as never, () => undefined) }, /Unknown hook point "chat:typo"; declared hook points: chat:request/)
})

t.test('handlers run in registration order and may replace the payload', async t => {
  const h = new Hooks()
  const order: string[] = []
  h.on<{ n: number }>('tool:before', p => { order.push('a'); return { n: p.n + 1 } })
  h.on<{ n: number }>('tool:before', () => { order.push('b') })
  h.on<{ n: number }>('tool:before', async p => { order.push('c'); return { n: p.n * 10 } })
  t.same(await h.run('tool:before', { n: 1 }), { n: 20 })
  t.same(order, ['a', 'b', 'c'])
})
