// The provider plugin docs/plugins.md shows must work as written: loaded from a path in
// plugins.json by a live reload, listed, and chatted with.
import t from 'tap'
import path from 'node:path'
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
