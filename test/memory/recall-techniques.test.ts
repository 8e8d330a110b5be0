// Recall techniques are plugins: one registered beside the memory plugin's basic
// vector+recency technique is run by the service and its candidates merged in.
import t from 'tap'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMemoryKernel, postJson } from './memory-kernel.ts'

const keyword = { name: 'recall-keyword', module: path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'recall-keyword') }

t.test('a technique from another plugin adds what only it can find; duplicates are merged', async t => {
  const s = await startMemoryKernel(t, { extra: [keyword] })
  const svc = s.svc()
  // Stored without a vector: vector similarity cannot find it, keyword search can.
  await svc.ctx.relational?.addTurn({ conversation_id: 'k1', role: 'user', content: 'the secret word is quokka', channel: 'kw' })
  await svc.episodic.addTurn({ conversation_id: 'k2', role: 'user', content: 'a quokka smiles at the camera', channel: 'kw' })
  const r = await postJson(s, '/api/memory/recall', { query: 'quokka', channel: 'kw' })
  t.equal(r.status, 200)
  t.same(r.body.techniques, ['vector_recency', 'keyword'])
  const turns = r.body.relevant_turns as Array<{ content: string, found_by?: string[] }>
  t.same(turns.map(x => x.content).sort(), ['a quokka smiles at the camera', 'the secret word is quokka'], 'each turn once')
  t.same(turns.find(x => x.content === 'the secret word is quokka')?.found_by, ['keyword'])
  t.same(turns.find(x => x.content === 'a quokka smiles at the camera')?.found_by, ['vector_recency', 'keyword'], 'both techniques named')
  t.match(r.body.context, /secret word is quokka/)
  t.type(r.body.timings_ms['technique:keyword'], 'number')
})

t.test('without another technique, recall is the basic one', async t => {
  const s = await startMemoryKernel(t)
  await s.svc().ctx.relational?.addTurn({ conversation_id: 'k1', role: 'user', content: 'the secret word is quokka', channel: 'kw' })
  const r = await postJson(s, '/api/memory/recall', { query: 'quokka', channel: 'kw' })
  t.same(r.body.techniques, ['vector_recency'])
  t.same(r.body.relevant_turns, [], 'a turn without a vector is not found by similarity')
})
