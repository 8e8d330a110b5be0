import t from 'tap'
import { CapabilityMap, Registry } from './registry.ts'

t.test('add then get; a duplicate throws', async t => {
  const m = new CapabilityMap<number>('widget')
  m.add('a', 1)
  t.equal(m.get('a'), 1)
  t.throws(() => { m.add('a', 2) }, /widget "a" is already registered/)
})

t.test('get of a missing name lists what is available, as a 404-class error', async t => {
  const m = new CapabilityMap<number>('provider')
  m.add('openai', 1)
  m.add('local', 2)
  t.throws(() => m.get('anthropic'), { message: 'No provider named "anthropic"; available: openai, local.', statusCode: 404 })
})

t.test('a frozen registry refuses additions, saying when to add', async t => {
  const r = new Registry()
  r.providers.add('x', {} as never)
  r.freeze()
  t.throws(() => { r.toolSources.add('y', {} as never) }, /frozen once the server is ready/)
  t.equal(r.providers.size, 1)
})
