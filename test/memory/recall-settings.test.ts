// GET/POST /api/memory/recall-settings on a real server, the settings taking effect on the
// next recall, surviving a restart; and the model-backed techniques (HyDE, self-query)
// against the fake OpenAI upstream: used when set, dropping out (and saying so) when the
// model fails, answers nonsense or hangs.
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { RECALL_DEFAULTS, RECALL_SETTING_KEYS } from '../helpers/recall-settings.ts'
import { startKernel } from '../helpers/kernel.ts'
import { repoPlugin, Workspace } from '../helpers/workspace.ts'
import { startChat } from '../chat/helpers.ts'
import { memoryPlugins, postJson } from './memory-kernel.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'

const techniques = ['recall-hybrid', 'recall-entity', 'recall-expansion', 'recall-hyde', 'recall-self-query', 'recall-time'].map(name => ({ name, module: repoPlugin(name) }))

t.test('recall settings: every key with value and default; partial update, live and persisted; 400 leaves them as they were', async t => {
  const ws = new Workspace()
  t.teardown(() => { ws.remove() })
  writeFileSync(path.join(ws.dataDir, 'memory_settings.json'), JSON.stringify({ consolidation_batch_size: 7 }))
  const s = await startKernel(t, { ws, plugins: memoryPlugins({ extra: techniques }) })
  // Flat (key -> value), defaults and meanings under _meta: the original client's shape.
  const get = async (): Promise<Record<string, unknown> & { _meta: { defaults: Record<string, unknown> } }> => await (await s.get('/api/memory/recall-settings')).json() as never
  const first = await get()
  t.same(Object.keys(first).filter(k => k !== '_meta').sort(), [...RECALL_SETTING_KEYS].sort(), 'every key')
  const { _meta: meta, ...values } = first
  t.same(values, RECALL_DEFAULTS, 'the defaults in force')
  t.same(meta.defaults, RECALL_DEFAULTS)
  t.match(first._meta.defaults, { recall_entity_graph_depth: 0, recall_hyde_provider: '', recall_hyde_temperature: 0, recall_hyde_max_tokens: 120, recall_self_query_provider: '', recall_self_query_temperature: 0, recall_self_query_max_tokens: 200 })
  t.match(first._meta.defaults, { recall_enable_hybrid: true, recall_enable_hyde: false, recall_hybrid_bm25_weight: 0.3, recall_hybrid_vector_weight: 0.7, recall_hybrid_rrf_k: 20, recall_candidate_depth: 100, recall_entity_similarity_threshold: 0.65, recall_entity_max_entities: 5, recall_expansion_max_variants: 3 })

  await s.kernel.current?.app.registry.memoryServices.first()?.storeTurn({ conversation_id: 'c', role: 'user', content: 'quokka facts', channel: 'st' })
  t.same((await postJson(s, '/api/memory/recall', { query: 'quokka', channel: 'st' })).body.techniques, ['vector_recency', 'hybrid', 'entity_centric', 'query_expansion', 'time'])

  const up = await postJson(s, '/api/memory/recall-settings', { recall_enable_hybrid: false, recall_hybrid_rrf_k: 10 })
  t.equal(up.status, 200)
  t.same(up.body.updated, ['recall_enable_hybrid', 'recall_hybrid_rrf_k'])
  t.match(await get(), { recall_enable_hybrid: false, recall_hybrid_rrf_k: 10, recall_enable_query_expansion: true })
  t.same((await postJson(s, '/api/memory/recall', { query: 'quokka', channel: 'st' })).body.techniques, ['vector_recency', 'entity_centric', 'query_expansion', 'time'], 'live: the next recall')
  const file = JSON.parse(readFileSync(path.join(ws.dataDir, 'memory_settings.json'), 'utf8'))
  t.match(file, { consolidation_batch_size: 7, recall_enable_hybrid: false, recall_hybrid_rrf_k: 10 }, 'written, other keys kept')

  for (const bad of [{ recall_enable_hybird: true }, { recall_enable_hybrid: 'yes' }, { recall_hybrid_rrf_k: 0 }, { recall_hybrid_bm25_weight: 2 }, { recall_hyde_model: 5 }, { recall_enable_hyde: true, nope: 1 }]) {
    const r = await postJson(s, '/api/memory/recall-settings', bad)
    t.equal(r.status, 400, JSON.stringify(bad))
    t.type(r.body.error, 'string')
  }
  t.match(await get(), { recall_enable_hybrid: false, recall_hybrid_rrf_k: 10, recall_enable_hyde: false }, 'a refused update changed nothing')
  await s.kernel.close()

  const again = await startKernel(t, { ws, plugins: memoryPlugins({ extra: techniques }) })
  const after = await (await again.get('/api/memory/recall-settings')).json() as Record<string, unknown>
  t.match(after, { recall_enable_hybrid: false, recall_hybrid_rrf_k: 10 }, 'persisted across a restart')
})

t.test('HyDE and self-query with a model: used when set; a failing, nonsensical or hanging model drops them out and the recall says so', async t => {
  const { s, fake } = await startChat(t, { extra: memoryPlugins({ memory: { recall_technique_timeout_ms: 3000 }, extra: techniques }) })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl
  await svc().episodic.addTurn({ conversation_id: 'p', role: 'user', content: 'Pepper the beagle moved in with us', channel: 'hm' })
  await svc().episodic.addTurn({ conversation_id: 'p', role: 'user', content: 'the printer is broken again', channel: 'hm' })
  let mode: 'ok' | 'error' | 'junk' | 'hang' = 'ok'
  fake.fallback = req => {
    const system = String(req.body.messages[0]?.content ?? '')
    if (mode === 'error') return { status: 500, message: 'upstream exploded' }
    if (mode === 'hang') return { hang: true }
    if (mode === 'junk') return { text: 'I would rather not.' }
    return system.includes('JSON') ? { text: '{"search": "beagle", "since": "2000-01-01", "until": null, "entity": null, "kind": "turns"}' } : { text: 'Our new beagle Pepper moved in.' }
  }
  const on = { recall_enable_hybrid: false, recall_enable_entity_centric: false, recall_enable_query_expansion: false, recall_enable_time: false, recall_enable_hyde: true, recall_enable_self_query: true, recall_hyde_model: 'openai/gpt-4o-mini', recall_self_query_model: 'gpt-4o-mini' }
  t.equal((await postJson(s, '/api/memory/recall-settings', on)).status, 200)
  const r = await postJson(s, '/api/memory/recall', { query: 'which animal joined the household?', channel: 'hm' })
  t.equal(r.status, 200)
  t.same(r.body.techniques, ['vector_recency', 'hyde', 'self_query'])
  t.equal(r.body.relevant_turns[0]?.content, 'Pepper the beagle moved in with us')
  t.ok(r.body.relevant_turns[0].found_by.includes('hyde'), 'found by the hypothetical answer')
  t.ok(r.body.relevant_turns[0].found_by.includes('self_query'), 'found by the filters\' search')
  t.type(r.body.timings_ms['hyde.model'], 'number')
  const asked = fake.completions.map(c => c.body.model)
  t.ok(asked.every(m => m === 'gpt-4o-mini'), 'the model named in the settings')

  for (const [m, why] of [['error', /the model failed/], ['junk', /not a JSON|empty|./], ['hang', /timed out after 3000 ms/]] as const) {
    mode = m
    const res = await postJson(s, '/api/memory/recall', { query: 'which animal joined the household?', channel: 'hm' })
    t.equal(res.status, 200, `${m}: the recall answers`)
    t.match(res.body.notes, { self_query: why }, `${m}: self_query says why`)
    if (m !== 'junk') t.match(res.body.notes, { hyde: why }, `${m}: hyde says why`)
    t.notOk(res.body.techniques.includes('self_query'))
  }
})
