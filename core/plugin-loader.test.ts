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

t.test('compiled (npm start), a TypeScript plugin loads its JavaScript, or fails saying how to ship it', async t => {
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs')
  const { tmpdir } = await import('node:os')
  const path = await import('node:path')
  const { runnableFile } = await import('./plugin-loader.ts')
  const root = mkdtempSync(path.join(tmpdir(), 'agentd-runnable-'))
  t.teardown(() => { rmSync(root, { recursive: true, force: true }) })
  const file = (rel: string): string => { const f = path.join(root, rel); mkdirSync(path.dirname(f), { recursive: true }); writeFileSync(f, ''); return f }
  const inTree = file('plugins/chat/index.ts')
  const twin = file('dist/plugins/chat/index.js')
  t.equal(runnableFile(inTree, root), twin, 'in the source tree: its twin under dist/')
  const mine = file('elsewhere/my-plugin/index.ts')
  t.throws(() => runnableFile(mine, root), /my-plugin\/index\.ts is TypeScript, which plain Node cannot load.*npx esbuild index\.ts --format=esm --platform=node --outfile=index\.js.*npm run dev/)
  const js = file('elsewhere/my-plugin/index.js')
  t.equal(runnableFile(mine, root), js, 'its compiled JavaScript beside it')
  t.equal(runnableFile(mine, undefined), mine, 'from sources (tsx): the .ts file itself')
})
