// The provider examples of docs/plugins.md: the parrot loads from a path in plugins.json
// by a live reload and answers a chat; it and the npm-shipped provider (whose loading
// from a tarball test/providers/third-party-provider.test.ts checks) reach agentd only
// through @agentd/sdk; the doc shows the shipped one as it is.
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

// The rule for a plugin that may ship on npm: agentd comes in only as the @agentd/sdk
// package (values and types alike), never as a path into this repository's files.
const agentdImports = (file: string): Array<{ from: string, typeOnly: boolean }> =>
  [...readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[\s\S]*?from\s+'([^']+)'/gm)].map(m => ({ typeOnly: m[1] !== undefined, from: m[2] }))

for (const example of ['docs/examples/provider-parrot/index.ts', 'test/fixtures/third-party-provider/index.mjs']) {
  t.test(`${example} reaches agentd only through @agentd/sdk, values included`, async t => {
    const imports = agentdImports(path.join(REPO, example))
    t.same(imports.filter(i => i.from.startsWith('.') || i.from.startsWith('/')).map(i => i.from), [], 'no path into this repository')
    t.ok(imports.some(i => i.from.startsWith('@agentd/sdk') && !i.typeOnly), 'it uses the SDK\'s values (the provider kit)')
    const lines = readFileSync(path.join(REPO, example), 'utf8').trimEnd().split('\n').length
    t.ok(lines < 50, `${lines} lines, under fifty`)
  })
}

t.test('docs/plugins.md shows the npm-shipped provider and its package.json as they are, with the right line count', async t => {
  const file = readFileSync(path.join(REPO, 'test/fixtures/third-party-provider/index.mjs'), 'utf8')
  const pkg = readFileSync(path.join(REPO, 'test/fixtures/third-party-provider/package.json'), 'utf8')
  const doc = readFileSync(path.join(REPO, 'docs/plugins.md'), 'utf8')
  t.equal(/```js\n(\/\/ An agentd provider for a model server[\s\S]*?)```/.exec(doc)?.[1], file, 'the js block is the file')
  t.equal(/```json\n(\{\n {2}"name": "agentd-provider-ndjson"[\s\S]*?)```/.exec(doc)?.[1], pkg, 'the json block is its package.json')
  t.match(doc, new RegExp(`server that streams newline-delimited JSON; ${file.trimEnd().split('\n').length} lines`), 'the stated line count is right')
})
