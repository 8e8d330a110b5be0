// Every memory and recall setting named after the original system acts on the code it
// names (issue 37: a setting that changes nothing is a defect). One server: the memory
// plugins, the recall techniques and the real OpenAI-compatible provider on the fake
// upstream, whose recorded requests show what the model calls were sent with.
import t from 'tap'
import { repoPlugin } from '../helpers/workspace.ts'
import { startChat } from '../chat/helpers.ts'
import { memoryPlugins, postJson } from './memory-kernel.ts'
import type { MemoryServiceImpl } from '../../plugins/memory/service.ts'
import type { RecordedRequest } from '../fakes/openai-upstream.ts'

const techniques = ['recall-entity', 'recall-hyde', 'recall-self-query'].map(name => ({ name, module: repoPlugin(name) }))

type Json = any // eslint-disable-line @typescript-eslint/no-explicit-any -- answers checked field by field

const extraction = (facts: Array<Record<string, unknown>>, entities: Array<Record<string, unknown>> = []): string =>
  JSON.stringify({ entities, facts, relationships: [] })
const fact = (subject: string, predicate: string, object: string, claim: string, turn = 0, temporal = 'current'): Record<string, unknown> =>
  ({ subject, predicate, object, claim, confidence: 0.95, temporal_context: temporal, turn, entities: [] })

t.test('memory and recall settings act', async t => {
  const { s, fake } = await startChat(t, { extra: memoryPlugins({ extra: techniques }) })
  const svc = (): MemoryServiceImpl => s.kernel.current?.app.registry.memoryServices.first() as MemoryServiceImpl
  const set = async (path: string, body: Record<string, unknown>): Promise<void> => {
    const r = await postJson(s, path, body)
    t.equal(r.status, 200, `${path} ${JSON.stringify(body).slice(0, 80)}`)
  }
  let n = 0
  /** A new conversation in its own channel, consolidated now; the consolidate job's metrics. */
  const consolidate = async (channel: string, ...lines: string[]): Promise<Json> => {
    const id = `c${++n}`
    for (const content of lines) await svc().episodic.addTurn({ conversation_id: id, role: 'user', content, channel })
    const r = await postJson(s, '/api/memory/consolidate', { jobs: ['consolidate'] })
    t.equal(r.status, 200)
    return r.body.results.consolidate
  }
  const factsIn = async (channel: string): Promise<Json[]> => (await s.json(`/api/memory/facts?channel=${channel}&limit=100`)).body.facts
  const since = (): (() => RecordedRequest[]) => { const from = fake.completions.length; return () => fake.completions.slice(from) }
  await set('/api/memory/settings', { extraction_mode: 'llm' })

  t.test('extraction: provider, model, temperature, max tokens, system prompt', async t => {
    await set('/api/memory/settings', { extraction_provider: 'openai', extraction_model: 'gpt-4o', extraction_temperature: 0.4, extraction_max_tokens: 777, extraction_system_prompt: 'Extract memories. Be terse.' })
    const asked = since()
    fake.enqueue({ text: extraction([fact('user', 'likes', 'tea', 'The user likes tea.')]) })
    const m = await consolidate('ex1', 'I like tea.')
    t.match(m, { extractor: { llm: 1 }, facts_created: 1 })
    const body = asked()[0].body
    t.match(body, { model: 'gpt-4o', temperature: 0.4 })
    t.equal(body.max_tokens ?? body.max_completion_tokens, 777, 'the token limit')
    t.match(body.messages[0].content, /^Extract memories\. Be terse\./)
    await set('/api/memory/settings', { extraction_system_prompt: '' })
    fake.enqueue({ text: extraction([]) })
    await consolidate('ex1', 'Nothing much.')
    t.match(asked()[1].body.messages[0].content, /third person/, 'empty: the default prompt')
    await set('/api/memory/settings', { extraction_provider: '', extraction_model: '', extraction_temperature: 0, extraction_max_tokens: 2000 })
  })

  t.test('extraction_enabled: off, nothing is read and the conversation waits', async t => {
    await set('/api/memory/settings', { extraction_enabled: false })
    const asked = since()
    const m = await consolidate('off1', 'I live in Oslo.')
    t.match(m, { skipped: /extraction_enabled/, conversations: 0 })
    t.equal(asked().length, 0, 'no model call')
    await set('/api/memory/settings', { extraction_enabled: true })
    fake.enqueue({ text: extraction([fact('user', 'lives_in', 'Oslo', 'The user lives in Oslo.')]) })
    t.ok((await postJson(s, '/api/memory/consolidate', { jobs: ['consolidate'] })).body.results.consolidate.conversations >= 1, 'read once on again')
    t.equal((await factsIn('off1')).length, 1)
  })

  t.test('extraction_condense_facts: one fact per subject and attribute, and the model is asked for it', async t => {
    const two = extraction([fact('user', 'lives_in', 'Lisbon', 'The user lives in Lisbon.', 0), fact('user', 'lives_in', 'Porto', 'The user lives in Porto.', 1)])
    fake.enqueue({ text: two })
    const plain = await consolidate('cf1', 'I live in Lisbon.', 'Actually I live in Porto.')
    t.equal(plain.facts_created, 2, 'off: both stored (the first superseded)')
    await set('/api/memory/settings', { extraction_condense_facts: true })
    const asked = since()
    fake.enqueue({ text: two })
    const condensed = await consolidate('cf2', 'I live in Lisbon.', 'Actually I live in Porto.')
    t.match(condensed, { facts_created: 1, facts_condensed: 1 })
    t.same((await factsIn('cf2')).map(f => f.claim), ['The user lives in Porto.'])
    t.match(asked()[0].body.messages[0].content, /Condense:/)
    await set('/api/memory/settings', { extraction_condense_facts: false })
  })

  t.test('fact_confidence_threshold and entity_linking_similarity_threshold', async t => {
    await set('/api/memory/settings', { fact_confidence_threshold: 0.99 })
    fake.enqueue({ text: extraction([fact('user', 'likes', 'jazz', 'The user likes jazz.')]) })
    t.match(await consolidate('th1', 'I like jazz.'), { facts_created: 0, facts_filtered: 1 }, 'less certain than the threshold: not stored')
    await set('/api/memory/settings', { fact_confidence_threshold: 0.3 })
    const org = (name: string): Record<string, unknown> => ({ name, type: 'Organization', aliases: [] })
    const linkWith = async (threshold: number, channel: string): Promise<Json> => {
      await set('/api/memory/settings', { entity_linking_similarity_threshold: threshold })
      fake.enqueue({ text: extraction([], [org('Acme Corp')]) }, { text: extraction([], [org('Acme Corporation')]) })
      await consolidate(channel, 'I deal with Acme Corp.')
      return await consolidate(channel, 'Acme Corporation called.')
    }
    t.match(await linkWith(0.01, 'th2'), { entities_linked: 1, entities_created: 0 }, 'a low threshold: the similar name is the same entity')
    t.match(await linkWith(1, 'th3'), { entities_linked: 0, entities_created: 1 }, 'the highest: a new entity')
    await set('/api/memory/settings', { entity_linking_similarity_threshold: 0.9 })
  })

  t.test('contradiction and correction detection', async t => {
    const both = async (channel: string, second: Record<string, unknown>): Promise<Json[]> => {
      fake.enqueue({ text: extraction([fact('user', 'works_at', 'Acme', 'The user works at Acme.')]) })
      await consolidate(channel, 'I work at Acme.')
      fake.enqueue({ text: extraction([second]) })
      await consolidate(channel, 'Something changed.')
      return (await s.json(`/api/memory/facts?channel=${channel}&limit=100`)).body.facts
    }
    const globex = fact('user', 'works_at', 'Globex', 'The user works at Globex.')
    const left = fact('user', 'works_at', 'Acme', 'The user no longer works at Acme.', 0, 'past')
    t.equal((await both('cd1', globex)).length, 1, 'on: the new employer supersedes the old (superseded facts are not listed)')
    await set('/api/memory/settings', { contradiction_detection_enabled: false })
    t.equal((await both('cd2', globex)).length, 2, 'contradiction detection off: both kept')
    t.equal((await both('cd3', left)).length, 1, 'correction detection on: "no longer" supersedes')
    await set('/api/memory/settings', { correction_detection_enabled: false })
    t.equal((await both('cd4', left)).length, 2, 'correction detection off: both kept')
    await set('/api/memory/settings', { contradiction_detection_enabled: true, correction_detection_enabled: true })
  })

  t.test('the relevance model: provider, model, max tokens, prompt; a NO skips the conversation', async t => {
    await set('/api/memory/settings', { relevance_filter_provider: 'openai', relevance_filter_model: 'gpt-4o', relevance_filter_max_tokens: 3, relevance_filter_prompt: 'Worth remembering? YES or NO.' })
    const asked = since()
    fake.enqueue({ text: 'NO' })
    const skipped = await consolidate('rf1', 'The printer on floor two is jammed again.')
    t.match(skipped, { conversations: 1, conversations_irrelevant: 1, facts_created: 0 })
    t.equal(asked().length, 1, 'no extraction call after a NO')
    t.match(asked()[0].body, { model: 'gpt-4o', messages: [{ role: 'system', content: 'Worth remembering? YES or NO.' }] })
    t.equal(asked()[0].body.max_tokens ?? asked()[0].body.max_completion_tokens, 3)
    fake.enqueue({ text: 'YES' }, { text: extraction([fact('user', 'likes', 'chess', 'The user likes chess.')]) })
    t.match(await consolidate('rf2', 'I like chess.'), { conversations_irrelevant: 0, facts_created: 1 })
    await set('/api/memory/settings', { relevance_filter_enabled: false })
    const off = since()
    fake.enqueue({ text: extraction([]) })
    await consolidate('rf3', 'Anything.')
    t.equal(off().length, 1, 'filter off: only the extraction call')
    await set('/api/memory/settings', { relevance_filter_enabled: true, relevance_filter_provider: '', relevance_filter_model: '' })
  })

  t.test('HyDE and self-query: provider, temperature, max tokens', async t => {
    await svc().episodic.addTurn({ conversation_id: 'h', role: 'user', content: 'Pepper the beagle moved in with us', channel: 'hy' })
    await set('/api/memory/recall-settings', {
      recall_enable_hyde: true, recall_hyde_provider: 'openai', recall_hyde_model: 'gpt-4o', recall_hyde_temperature: 0.9, recall_hyde_max_tokens: 64,
      recall_enable_self_query: true, recall_self_query_provider: 'openai', recall_self_query_model: 'gpt-4o-mini', recall_self_query_temperature: 0.1, recall_self_query_max_tokens: 99,
    })
    const asked = since()
    fake.fallback = req => String(req.body.messages[0]?.content ?? '').includes('JSON') ? { text: '{"search": "beagle"}' } : { text: 'A beagle moved in.' }
    const r = await postJson(s, '/api/memory/recall', { query: 'which animal joined us?', channel: 'hy' })
    t.equal(r.status, 200)
    t.ok(r.body.techniques.includes('hyde') && r.body.techniques.includes('self_query'), r.body.techniques.join(', '))
    const bodies = asked().map(c => c.body)
    const limit = (b: Json): unknown => b.max_tokens ?? b.max_completion_tokens
    t.ok(bodies.some(b => b.model === 'gpt-4o' && b.temperature === 0.9 && limit(b) === 64), 'HyDE: its provider, model, temperature, max tokens')
    t.ok(bodies.some(b => b.model === 'gpt-4o-mini' && b.temperature === 0.1 && limit(b) === 99), 'self-query: its own')
    await set('/api/memory/recall-settings', { recall_hyde_provider: 'nope' })
    const bad = await postJson(s, '/api/memory/recall', { query: 'which animal joined us?', channel: 'hy' })
    t.match(bad.body.notes, { hyde: /no provider "nope"/ }, 'the provider is the one asked')
    await set('/api/memory/recall-settings', { recall_enable_hyde: false, recall_enable_self_query: false, recall_hyde_provider: '' })
  })

  t.test('recall_entity_graph_depth: facts of related entities, within that many hops', async t => {
    const ent = async (name: string, type: string): Promise<string> => (await postJson(s, '/api/memory/entities', { name, type, channel: 'gd' })).body.entity.id
    const okafor = await ent('Okafor', 'Person')
    const acme = await ent('Zephyrcorp', 'Organization')
    await s.kernel.current?.app.registry.graphStores.first()?.relate({ source_id: okafor, target_id: acme, type: 'works_at', channel: 'gd' })
    await postJson(s, '/api/memory/facts', { claim: 'Zephyrcorp builds weather balloons.', channel: 'gd', entity_ids: [acme] })
    const entityFacts = async (): Promise<string[]> => {
      const r = await postJson(s, '/api/memory/recall', { query: 'What does Okafor do?', channel: 'gd' })
      return (r.body.facts as Json[]).filter(f => (f.found_by ?? []).includes('entity_centric')).map(f => f.claim)
    }
    await set('/api/memory/recall-settings', { recall_entity_graph_depth: 0 })
    t.same(await entityFacts(), [], 'depth 0: only the named entity\'s own facts (it has none)')
    await set('/api/memory/recall-settings', { recall_entity_graph_depth: 1 })
    t.same(await entityFacts(), ['Zephyrcorp builds weather balloons.'], 'depth 1: the employer\'s fact')
    await set('/api/memory/recall-settings', { recall_entity_graph_depth: 0 })
  })
})
