// A change of embedder: detected at start, reported with a fix that works, and fixed by
// the re-embed job (automatically at start, or on POST /api/memory/reembed), after which
// recall finds what was stored with the old embedder.
import t from 'tap'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMemoryKernel, memoryPlugins, postJson } from './memory-kernel.ts'
import { repoPlugin } from '../helpers/workspace.ts'
import { until } from '../chat/helpers.ts'

const slow = { name: 'embed-slow', module: path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'embed-slow'), options: { dimensions: 128, load_ms: 300 } }
const hash = { name: 'embed-hash', module: repoPlugin('embed-hash') }

t.test('after a switch of embedder, the old vectors are re-embedded at start and recall finds them again', async t => {
  const s = await startMemoryKernel(t)
  const svc = s.svc()
  const turn = await svc.episodic.addTurn({ conversation_id: 're-1', role: 'user', content: 'The lighthouse keeper is called Morwenna', channel: 're' })
  await svc.semantic.addFact({ claim: 'Morwenna keeps the lighthouse on the cliff', channel: 're' })
  await svc.semantic.addEntity({ name: 'Morwenna', type: 'Person', description: 'lighthouse keeper', channel: 're' })
  t.equal(turn.embedder, 'hash-v2')

  // The new embedder loads slowly, like a local model: the job waits for it.
  s.ws.writePlugins(memoryPlugins({ embedder: hash, extra: [slow], memory: { embedder: 'embed-slow' } }))
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true)
  const health = async (): Promise<{ id: string, warning?: string, reembed: { status: string, total: number, done: number } }> => (await s.json('/api/health?include_memory=true')).body.memory.embedder
  await until('the re-embed job to finish', async () => (await health()).reembed.status === 'done', 20_000)
  const h = await health()
  t.match(h, { id: 'test-slow-128', reembed: { status: 'done', total: 3, done: 3 } })
  t.equal(h.warning, undefined, 'the warning is gone once everything is re-embedded')

  const turns = await s.svc().ctx.relational?.conversationTurns('re-1', 10) ?? []
  t.equal(turns[0].embedder, 'test-slow-128', 'the turn carries the new embedder')
  const r = await postJson(s, '/api/memory/recall', { query: 'who keeps the lighthouse', channel: 're' })
  t.equal(r.status, 200)
  t.equal(r.body.warning, undefined)
  t.same(r.body.relevant_turns.map((x: { content: string }) => x.content), ['The lighthouse keeper is called Morwenna'])
  t.ok(r.body.relevant_turns[0].similarity > 0.05, 'found by vector similarity')
  t.same(r.body.facts.map((x: { claim: string }) => x.claim), ['Morwenna keeps the lighthouse on the cliff'])
  t.match(r.body.entities, [{ name: 'Morwenna' }])
  const audit = await s.svc().ctx.relational?.auditLog(10) ?? []
  t.match(audit.find(a => a.action === 'memory.reembed'), { details: { status: 'done', embedder: 'test-slow-128', done: 3 } }, 'the run is audited')
})

t.test('with auto_reembed false the change is only reported; POST /api/memory/reembed fixes it', async t => {
  const s = await startMemoryKernel(t)
  await s.svc().episodic.addTurn({ conversation_id: 'e1', role: 'user', content: 'embedded by the 384d hash', channel: 'em' })
  s.ws.writePlugins(memoryPlugins({ embedder: { ...hash, options: { dimensions: 256 } }, memory: { auto_reembed: false } }))
  await s.nextReload()
  t.equal(s.kernel.api.lastReload()?.ok, true)
  const h = (await s.json('/api/health?include_memory=true')).body.memory
  t.match(h.embedder, { id: 'hash-v2-256', dimensions: 256, warning: /hash-v2 \(384d\).*POST \/api\/memory\/reembed/, reembed: { status: 'idle' } })
  const before = await postJson(s, '/api/memory/recall', { query: 'hash', channel: 'em' })
  t.match(before.body.warning, /embedder changed/)
  t.same(before.body.relevant_turns, [], 'old vectors are never compared with new ones')

  const started = await postJson(s, '/api/memory/reembed', {})
  t.equal(started.status, 202)
  t.match(started.body, { embedder: 'hash-v2-256', dimensions: 256, total: 1 })
  await until('the re-embed job to finish', async () => (await s.json('/api/memory/stats')).body.reembed.status === 'done', 20_000)
  t.match((await s.json('/api/memory/stats')).body.reembed, { status: 'done', total: 1, done: 1, dropped: 0 })
  const after = await postJson(s, '/api/memory/recall', { query: 'embedded by the hash', channel: 'em' })
  t.equal(after.body.warning, undefined)
  t.same(after.body.relevant_turns.map((x: { content: string }) => x.content), ['embedded by the 384d hash'])
  const again = await postJson(s, '/api/memory/reembed', {})
  t.equal(again.status, 202)
  t.match(again.body, { total: 0 }, 'nothing left to do')
})

t.test('what embed-hash stored while a model loaded after start is re-embedded once the model is ready', async t => {
  const s = await startMemoryKernel(t, { extra: [{ ...slow, options: { dimensions: 128, load_ms: 800 } }], memory: { embedder: 'embed-slow' } })
  const turn = await s.svc().episodic.addTurn({ conversation_id: 'late-1', role: 'user', content: 'The ferry to Harwick leaves at dawn', channel: 'late' })
  t.equal(turn.embedder, 'hash-v2', 'embed-hash answered while the model loaded (the first embedding started its load)')
  const health = async (): Promise<{ id: string, reembed: { status: string, total: number, done: number } }> => (await s.json('/api/health?include_memory=true')).body.memory.embedder
  await until('the re-embed job to finish', async () => (await health()).reembed.status === 'done', 20_000)
  t.match(await health(), { id: 'test-slow-128', reembed: { status: 'done', total: 1, done: 1 } })
  const turns = await s.svc().ctx.relational?.conversationTurns('late-1', 10) ?? []
  t.equal(turns[0].embedder, 'test-slow-128', 'the turn carries the model\'s vector')
})
