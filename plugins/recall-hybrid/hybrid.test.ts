// The hybrid technique's keyword list: from the graph store's copies of the turns when it
// keeps them with a full-text index (GraphStore.searchTurns: Neo4j), else, and when the
// graph store is down, from the relational store (the record). Store doubles only.
import t from 'tap'
import { RECALL_DEFAULTS } from '../../test/helpers/recall-settings.ts'
import { StoreUnavailableError } from '@agentd/sdk/kits/memory'
import type { GraphStore, RelationalStore, Turn } from '@agentd/sdk/contracts/memory-stores'
import { hybridTechnique } from './hybrid.ts'

const turn = (id: string, content: string): Turn & { score: number } => ({ id, conversation_id: 'c', index: 0, timestamp: '2026-03-01T10:00:00.000Z', role: 'user', content, token_count: 1, metadata: {}, channel: 'work', embedder: null, score: 1 })
type Ask = { text: string, channels: string[], limit: number }

function stores (graphSearch?: (q: Ask) => Promise<Array<Turn & { score: number }>>): { rel: RelationalStore, graph: GraphStore, asked: { rel: Ask[], graph: Ask[] } } {
  const asked = { rel: [] as Ask[], graph: [] as Ask[] }
  const rel: Partial<RelationalStore> = { searchTurns: async q => { asked.rel.push(q); return [turn('from-sql', 'sql')] } }
  const graph: Partial<GraphStore> = graphSearch === undefined ? {} : { searchTurns: async q => { asked.graph.push(q); return await graphSearch(q) } }
  return { rel: rel as RelationalStore, graph: graph as GraphStore, asked }
}
const input = { query: 'Okafor', channel: 'work', channels: ['work', '_global'], top_k: 5, settings: RECALL_DEFAULTS, strict: false }

t.test('the graph store\'s turn search gives the keyword list when it has one', async t => {
  const s = stores(async () => [turn('from-neo4j', 'Okafor')])
  const r = await hybridTechnique(() => s.rel, () => s.graph).run(input)
  t.same(r.relevant_turns?.map(x => x.id), ['from-neo4j'])
  t.same(s.asked.graph, [{ text: 'Okafor', channels: ['work', '_global'], limit: 100 }])
  t.same(s.asked.rel, [], 'the relational store is not asked')
  t.type(r.timings_ms?.fulltext, 'number')
})

t.test('a graph store without it, or none: the relational store\'s', async t => {
  const s = stores()
  t.same((await hybridTechnique(() => s.rel, () => s.graph).run(input)).relevant_turns?.map(x => x.id), ['from-sql'])
  t.same((await hybridTechnique(() => s.rel).run(input)).relevant_turns?.map(x => x.id), ['from-sql'])
  t.equal(s.asked.rel.length, 2)
})

t.test('the graph store down: the relational store answers instead, nothing degrades', async t => {
  const s = stores(async () => { throw new StoreUnavailableError('graph', 'neo4j', new Error('connection refused')) })
  const r = await hybridTechnique(() => s.rel, () => s.graph).run(input)
  t.same(r.relevant_turns?.map(x => x.id), ['from-sql'])
  t.equal(r.degraded, undefined)
  t.equal(s.asked.graph.length, 1)
})

t.test('another failure of the graph store is not hidden', async t => {
  const s = stores(async () => { throw new Error('a bad statement') })
  await t.rejects(hybridTechnique(() => s.rel, () => s.graph).run(input), /a bad statement/)
  t.same(s.asked.rel, [])
})

t.test('its keyword list weighs recall_hybrid_bm25_weight in the service\'s fusion; it leaves the vector list to the service', async t => {
  const s = stores()
  let read = 0
  const r = await hybridTechnique(() => s.rel).run({ ...input, settings: { ...RECALL_DEFAULTS, recall_hybrid_bm25_weight: 0.45 }, embedding: { vector: [1, 0], embedder: 'e' }, nearestTurns: async () => { read++; return [turn('near', 'close')] } })
  t.same(r.relevant_turns?.map(x => x.id), ['from-sql'], 'the keyword list alone')
  t.same(r.weights, { relevant_turns: 0.45 })
  t.equal(read, 0, 'the vector neighbours are not read here')
})

t.test('it reads as deep as recall_candidate_depth, or 3 x top_k when that is deeper', async t => {
  const s = stores()
  await hybridTechnique(() => s.rel).run({ ...input, settings: { ...RECALL_DEFAULTS, recall_candidate_depth: 40 } })
  await hybridTechnique(() => s.rel).run({ ...input, top_k: 20, settings: { ...RECALL_DEFAULTS, recall_candidate_depth: 40 } })
  t.same(s.asked.rel.map(a => a.limit), [40, 60])
})
