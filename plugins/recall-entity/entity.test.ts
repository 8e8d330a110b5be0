// entity_centric's turns that mention the entities found: from the graph store's copies of
// the turns when it keeps them with a full-text index (GraphStore.searchTurns: Neo4j),
// else from the relational store. Store doubles only.
import t from 'tap'
import { RECALL_DEFAULTS } from '../../test/helpers/recall-settings.ts'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { Entity, GraphStore, RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { entityTechnique } from './entity.ts'

const turn = (id: string): Turn & { score: number } => ({ id, conversation_id: 'c', index: 0, timestamp: '2026-03-01T10:00:00.000Z', role: 'user', content: 'Okafor', token_count: 1, metadata: {}, channel: 'work', embedder: null, score: 1 })
const okafor: Entity = { id: 'e1', name: 'Okafor', type: 'Person', aliases: ['Dr O'], description: null, salience: 0.9, properties: {}, first_seen: '2026-03-01T10:00:00.000Z', last_accessed: '2026-03-01T10:00:00.000Z', access_count: 0, channel: 'work', conversation_count: 1 }
const input = { query: 'What did Okafor say?', channel: 'work', channels: ['work', '_global'], top_k: 5, settings: RECALL_DEFAULTS, strict: false }

function stores (searchTurns?: GraphStore['searchTurns']): { graph: GraphStore, rel: RelationalStore, asked: string[] } {
  const asked: string[] = []
  const graph: Partial<GraphStore> = {
    searchEntities: async () => [{ ...okafor, score: 1 }],
    graph: async () => ({ entity: okafor, facts: [], relationships: [], depth: 1, limit: 500, truncated: false }),
    ...(searchTurns === undefined ? {} : { searchTurns: async q => { asked.push(`graph: ${q.text}`); return await searchTurns(q) } }),
  }
  const rel: Partial<RelationalStore> = { searchTurns: async q => { asked.push(`sql: ${q.text}`); return [turn('from-sql')] } }
  return { graph: graph as GraphStore, rel: rel as RelationalStore, asked }
}

t.test('the graph store\'s turn copies when it keeps them, with the entity\'s names in the query', async t => {
  const s = stores(async () => [turn('from-neo4j')])
  const r = await entityTechnique({ graph: () => s.graph, relational: () => s.rel }).run(input)
  t.same(r.relevant_turns?.map(x => x.id), ['from-neo4j'])
  t.same(s.asked, ['graph: What did Okafor say? Okafor Dr O'])
})

t.test('its turns weigh 0.2 in the service\'s fusion (one more keyword list); its facts and entities the technique\'s weight', async t => {
  const s = stores(async () => [turn('from-neo4j')])
  const r = await entityTechnique({ graph: () => s.graph, relational: () => s.rel }).run(input)
  t.same(r.weights, { relevant_turns: 0.2 })
})

t.test('the relational store\'s without them, and when the graph store is down', async t => {
  const without = stores()
  t.same((await entityTechnique({ graph: () => without.graph, relational: () => without.rel }).run(input)).relevant_turns?.map(x => x.id), ['from-sql'])
  const down = stores(async () => { throw new StoreUnavailableError('graph', 'neo4j', new Error('refused')) })
  t.same((await entityTechnique({ graph: () => down.graph, relational: () => down.rel }).run(input)).relevant_turns?.map(x => x.id), ['from-sql'])
  t.same(down.asked.map(a => a.split(':')[0]), ['graph', 'sql'])
})

t.test('no name search when the query\'s nearest-entity read finds no entity in the channels; one when it finds any', async t => {
  const embedded = { ...input, embedding: { vector: [1, 0], embedder: 'hash' } }
  let searches = 0
  const graphWith = (near: Array<Entity & { score: number }>): GraphStore => ({
    searchEntities: async () => { searches++; return [{ ...okafor, score: 1 }] },
    similarEntities: async () => near,
    graph: async () => ({ entity: okafor, facts: [], relationships: [], depth: 1, limit: 500, truncated: false }),
  }) as Partial<GraphStore> as GraphStore
  const rel = { searchTurns: async () => [turn('t1')] } as Partial<RelationalStore> as RelationalStore
  const none = await entityTechnique({ graph: () => graphWith([]), relational: () => rel }).run(embedded)
  t.equal(searches, 0, 'no entity with a vector: nothing to find by name')
  t.same(none.entities, [])
  const some = await entityTechnique({ graph: () => graphWith([{ ...okafor, id: 'e2', name: 'Lisbon', score: 0.1 }]), relational: () => rel }).run(embedded)
  t.equal(searches, 1, 'entities exist: the name search runs')
  t.same(some.entities?.map(e => e.id), ['e1'], 'found by name; the far one is under the similarity threshold')
})
