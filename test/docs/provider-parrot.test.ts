// The provider plugin docs/plugins.md shows must work as written: loaded from a path in
// plugins.json by a live reload, listed, and chatted with.
import t from 'tap'
import path from 'node:path'
import { readFileSync } from 'node:fs'
import { startKernel } from '../helpers/kernel.ts'
import { REPO, repoPlugin } from '../helpers/workspace.ts'

const base = [
  { name: 'providers-api', module: repoPlugin('providers-api') },
  { name: 'prompts', module: repoPlugin('prompts') },
  { name: 'chat', module: repoPlugin('chat') },
]

t.test('the documented parrot provider loads by path after a live reload and answers a chat', async t => {
  const s = await startKernel(t, { plugins: base })
  const reloaded = s.nextReload()
  s.ws.writePlugins([{ name: 'parrot', module: path.join(REPO, 'docs/examples/provider-parrot'), options: { greeting: 'Polly says' } }, ...base])
  await reloaded
  const providers = (await s.json('/api/providers')).body.providers as Array<{ name: string, status: string }>
  t.ok(providers.some(p => p.name === 'parrot' && p.status === 'configured'), 'listed as configured')
  const chat = await s.post('/api/agent/chat', { message: 'pieces of eight', model: 'parrot/parrot-1', use_memory: false })
  t.equal(chat.status, 200)
  const body = await chat.json() as { answer: string, provider: string }
  t.equal(body.answer, 'Polly says: pieces of eight')
  t.equal(body.provider, 'parrot')
})

t.test('the documented parrot takes only types from agentd: an out-of-tree plugin cannot import its values', async t => {
  const source = readFileSync(path.join(REPO, 'docs/examples/provider-parrot/index.ts'), 'utf8')
  const imports = [...source.matchAll(/^import\s+(type\s+)?.*?from\s+'([^']+)'/gm)].map(m => ({ typeOnly: m[1] !== undefined, from: m[2] }))
  t.ok(imports.length > 0)
  const fromRepo = imports.filter(i => i.from.startsWith('.'))
  t.ok(fromRepo.length > 0, 'it does use the contract types')
  t.same(fromRepo.filter(i => !i.typeOnly).map(i => i.from), [], 'every import from this repository is `import type`')
  t.ok(source.split('\n').length < 50, 'still under fifty lines')
})

t.test('docs/plugins.md shows the example file as it is, under fifty lines, importing only types from core', async t => {
  const { readFileSync } = await import('node:fs')
  const file = readFileSync(path.join(REPO, 'docs/examples/provider-parrot/index.ts'), 'utf8')
  const doc = readFileSync(path.join(REPO, 'docs/plugins.md'), 'utf8')
  const block = /```ts\n(\/\/ A whole provider plugin[\s\S]*?)```/.exec(doc)?.[1]
  t.equal(block, file, 'the block in docs/plugins.md is the file')
  const lines = file.trimEnd().split('\n').length
  t.ok(lines < 50, `${lines} lines`)
  t.match(doc, new RegExp(`a whole provider, ${lines} lines`), 'the stated line count is right')
  const fromCore = file.split('\n').filter(l => /from '[./]*core\//.test(l))
  t.ok(fromCore.length > 0)
  for (const l of fromCore) t.match(l, /^import type /, `types only, so an npm-shipped copy needs nothing of agentd at run time: ${l}`)
})
