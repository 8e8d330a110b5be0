import t from 'tap'
import { CapabilityMap, createRegistry, labelOf } from './registry.ts'
import '../contracts/index.ts'

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
  const r = createRegistry()
  r.providers.add('x', {} as never)
  r.freeze()
  t.throws(() => { r.toolSources.add('y', {} as never) }, /frozen once the server is ready/)
  t.equal(r.providers.size, 1)
})

t.test('a kind is created on first use under the name its contract declared', async t => {
  const r = createRegistry()
  t.same(r.kinds(), [])
  r.strategies.add('cot', {} as never)
  t.equal(r.strategies.get('cot'), r.strategies.find('cot'))
  t.same(r.kinds(), ['strategies'])
  t.throws(() => r.graphStores.get('neo4j'), { message: 'No graph store named "neo4j"; available: none.', statusCode: 404 })
})

t.test('a kind first read after freezing is empty and frozen', async t => {
  const r = createRegistry()
  r.freeze()
  t.equal(r.jobs.size, 0)
  t.throws(() => { r.jobs.add('decay', {} as never) }, /frozen/)
})

t.test('kind labels read as English in errors', async t => {
  t.same(['providers', 'strategies', 'toolSources', 'recallTechniques', 'kvStores', 'health'].map(labelOf),
    ['provider', 'strategy', 'tool source', 'recall technique', 'kv store', 'health'])
})

t.test('a registry is not mistaken for a promise', async t => {
  const r = createRegistry()
  t.equal(await Promise.resolve(r), r)
})
