import t from 'tap'
import { orderByDependencies, type PlannedPlugin } from './plugin-loader.ts'

const p = (name: string, dependencies: string[] = [], enabled = true): PlannedPlugin =>
  ({ name, module: `./${name}`, resolved: '', enabled, version: '1', options: {}, dependencies })

t.test('dependencies load first, declaration order otherwise kept', async t => {
  const order = orderByDependencies([p('chat', ['prompts', 'openai']), p('openai'), p('prompts'), p('tools')]).map(x => x.name)
  t.same(order, ['prompts', 'openai', 'chat', 'tools'])
})

t.test('a cycle is named in full', async t => {
  t.throws(() => orderByDependencies([p('a', ['b']), p('b', ['a'])]), /dependency cycle: a -> b -> a/)
})

t.test('a missing dependency is named', async t => {
  t.throws(() => orderByDependencies([p('a', ['ghost'])]), /depends on "ghost", which is not in plugins.json/)
})

t.test('disabled plugins go last and are not visited', async t => {
  t.same(orderByDependencies([p('off', ['ghost'], false), p('on')]).map(x => x.name), ['on', 'off'])
})
