// Every statement the store sends is valid Cypher 5 for Neo4j's own parser
// (@neo4j-cypher/language-support, the one behind Neo4j's editors): no syntax error, no
// unknown function or procedure, no undefined variable, and every $parameter it uses is
// one the store passed. The store is driven through every method against the recording
// fake driver; the test also checks that no statement was left unexercised.
import t from 'tap'
import neo4j from 'neo4j-driver'
import { lintCypherQuery, testData } from '@neo4j-cypher/language-support'
import { Neo4jGraphStore } from './graph-store.ts'
import { Q } from './cypher.ts'
import { PQ } from './promote.ts'
import { CQ } from './copies.ts'
import { SCHEMA, vectorIndexStatement } from './schema.ts'
import { FakeDriver, entityMap, factMap, rec } from './test-support.ts'

const E1 = '11111111-1111-1111-1111-111111111111'
const F1 = '22222222-2222-2222-2222-222222222222'

// Plausible answers, so that every branch (merges included) runs.
const driver = new FakeDriver((q, p) => {
  const n = rec({ n: neo4j.int(1), total: neo4j.int(1), dims: neo4j.int(8) })
  if (q === Q.mergeEntity) return [rec({ id: E1, created: false, aliases: [], properties: '{}' })]
  if (q === Q.mergeFact) return [rec({ id: p.claim === 'same' ? F1 : 'f-new', created: true })]
  if (q === Q.entityForUpdate) return [rec({ name: 'A', type: 'T', channel: 'c', dims: neo4j.int(8) })]
  if (q === Q.entityClash) return []
  if (([Q.updateEntity, Q.entity, Q.listEntities, Q.findEntities, Q.updateEntityFields] as string[]).includes(q)) return [rec({ entity: entityMap({ id: E1, name: 'A', channel: 'c' }) })]
  if (([Q.nearestEntities, Q.scanEntities, Q.searchEntities] as string[]).includes(q)) return q === Q.nearestEntities ? [] : [rec({ entity: entityMap({ id: E1, name: 'A', channel: 'c' }), score: 1 })]
  if (([Q.fact, Q.listFacts, Q.entityFacts, Q.findFact, Q.currentFacts, Q.updateFact] as string[]).includes(q)) return [rec({ fact: factMap({ id: F1, claim: 'x', channel: 'c' }) })]
  if (([Q.nearestFacts, Q.scanFacts, Q.searchFacts] as string[]).includes(q)) return q === Q.nearestFacts ? [] : [rec({ fact: factMap({ id: F1, claim: 'x', channel: 'c' }), score: 1 })]
  if (q === Q.relate) return [rec({ id: 'r', source_id: E1, target_id: E1, type: 't', confidence: 0.5, channel: 'c' })]
  if (q === Q.countByChannel) return [rec({ channel: 'c', kind: 'facts', n: neo4j.int(1) })]
  if (q === Q.embedderUsage) return [rec({ embedder: 'e', dims: neo4j.int(8), n: neo4j.int(1) })]
  if (([Q.staleEntities, Q.staleFacts, CQ.staleTurns, CQ.staleGoals, CQ.staleStrategies] as string[]).includes(q)) return []
  if (q === CQ.nearestTurns) return []
  if (([CQ.copiedTurns, CQ.copiedGoals, CQ.copiedStrategies] as string[]).includes(q)) return [rec({ id: 't1' })]
  if (q === CQ.backfillState) return [rec({ state: '{"after":{"turn":"t1"},"done":false,"copied":1}' })]
  if (q === CQ.saveBackfillState) return []
  if (q === CQ.searchTopTurns) return []
  if (q === CQ.searchTurns || q === CQ.scanTurns) return [rec({ turn: { id: 't1', conversation_id: 'c1', index: neo4j.int(0), timestamp: null, role: 'user', content: 'x', token_count: null, metadata: '{}', channel: 'c', embedder: null }, score: 1 })]
  if (q === CQ.upsertTurn || q === CQ.upsertGoal || q === CQ.upsertStrategy) return [rec({ id: 'x' })]
  if (q === PQ.fact) return [rec({ claim_hash: 'h', channel: 'c' })]
  if (q === PQ.factThere || q === PQ.entityThere) return p.channel === 'merge' ? [rec({ id: 'there', t_aliases: [], s_aliases: [], t_properties: '{}', s_properties: '{}' })] : []
  if (q === PQ.entity) return [rec({ name_key: 'a', type: 'T', channel: 'c' })]
  if (q === Q.walk || q === Q.ping || q === Q.awaitIndex || q === Q.touchFacts || q === Q.touchEntity || q === Q.linkFact || q === Q.supersede) return []
  return [n]
})

async function exercise (): Promise<void> {
  const s = new Neo4jGraphStore({ driver, cooldownMs: 0 })
  const v = { vector: [1, 0, 0, 0, 0, 0, 0, 0], embedder: 'e' }
  await s.health()
  await s.upsertEntity({ name: 'A', type: 'T', channel: 'c', embedding: v, conversation_id: 'c1' })
  await s.findEntities({ channels: ['c', '_global'], name: 'a', limit: 3 })
  await s.updateEntity(E1, { name: 'B', aliases: ['b'], description: null, properties: { x: 1 }, salience: 0.2, embedding: { vector: [0, 0, 1, 0], embedder: 'n' } })
  await s.deleteEntity(E1)
  await s.entity(E1)
  await s.entities({ channel: 'c', search: 'a', type: 'T', offset: 0, limit: 5 })
  await s.similarEntities({ embedding: v, channels: ['c'], limit: 2 })
  await s.searchEntities({ text: 'a b', channels: ['c'], limit: 2 })
  await s.addFact({ claim: 'x', claim_hash: 'h', source: 'user_stated', channel: 'c', entity_ids: [E1], embedding: v })
  await s.supersedeFact(F1, { claim: 'y', claim_hash: 'h2', source: 'user_stated', channel: 'c' })
  await s.fact(F1)
  await s.facts({ channel: 'c', exclude_channel: '_global', search: 'x', min_confidence: 0.2, include_superseded: true, flagged: true, min_access_count: 1, min_conversations: 2, offset: 0, limit: 5 })
  await s.similarFacts({ embedding: v, channels: ['c'], limit: 2, include_superseded: true })
  await s.findFact({ channels: ['c'], claim_hash: 'h' })
  await s.updateFact(F1, { confidence: 0.4, temporal_context: null, salience: 0.2, flagged_for_review: false })
  await s.deleteFact(F1)
  await s.currentFacts({ channels: ['c'], subject_id: E1, attribute: 'lives_in' })
  await s.searchFacts({ text: 'x', channels: ['c'], limit: 2 })
  await s.relate({ source_id: E1, target_id: E1, type: 't', channel: 'c' })
  await s.graph(E1, 2)
  await s.setSalience('entity', E1, 0.5)
  await s.setSalience('fact', F1, 0.5)
  for (const kind of ['entity', 'fact'] as const) for (const channel of ['moved', 'merge']) await s.moveToChannel(kind, E1, channel)
  await s.upsertTurn({ id: 't1', conversation_id: 'c1', index: 0, timestamp: '2026-01-01T00:00:00.000Z', role: 'user', content: 'hi', token_count: 1, metadata: {}, channel: 'c', embedder: 'e' }, v)
  await s.upsertGoal({ id: 'g1', description: 'd', status: 'active', priority: 1, parent_goal_id: null, created_at: '2026-01-01T00:00:00.000Z', deadline: null, channel: 'c' }, v)
  await s.upsertStrategy({ id: 's1', description: 'd', context_pattern: 'p', tool_sequence: ['a'], success_count: 1, failure_count: 0, last_used: null, channel: 'c' }, v)
  for (const kind of ['goal', 'strategy', 'conversation'] as const) await s.removeCopy(kind, 'x')
  await s.searchTurns({ text: 'hi there', channels: ['c'], limit: 3 })
  await s.similarTurns({ embedding: v, channels: ['c'], limit: 2 })
  for (const kind of ['turn', 'goal', 'strategy'] as const) await s.copiedIds(kind, ['t1'])
  await s.saveBackfillState({ ...await s.backfillState() ?? { after: {}, done: false, copied: 0 }, done: true })
  await s.deleteChannel('c')
  await s.countByChannel()
  await s.deleteAll()
  await s.embedderUsage()
  await s.staleEmbeddings({ embedder: 'e', dimensions: 8, limit: 5 })
  await s.setEmbeddings([{ kind: 'entity', id: E1, embedding: { vector: [0, 1, 0, 0], embedder: 'n' } }, { kind: 'fact', id: F1, embedding: null },
    { kind: 'turn', id: 't1', embedding: null }, { kind: 'goal', id: 'g1', embedding: null }, { kind: 'strategy', id: 's1', embedding: null }])
}

/**
 * The linter's schema (Neo4j's mock one: every built-in function and procedure). Before each
 * statement the linter compares the schema's functions and procedures with the last ones it
 * saw as JSON text, 2.6 MB twice a statement (~1.7 s of the file's CPU); as the same objects
 * each time, they say so in a few bytes (toJSON, not enumerable: the signatures the linter
 * reads are the same).
 */
type ByVersion<T> = Partial<Record<string, Record<string, T>>>
function tagged<T> (kind: string, byVersion: ByVersion<T> | undefined): ByVersion<T> | undefined {
  if (byVersion === undefined) return undefined
  return Object.fromEntries(Object.entries(byVersion).map(([version, members]) => {
    const copy = { ...members }
    Object.defineProperty(copy, 'toJSON', { value: () => `${kind} ${version} of the mock schema`, enumerable: false })
    return [version, copy]
  }))
}
const SCHEMA_FOR_LINT = { ...testData.mockSchema, functions: tagged('functions', testData.mockSchema.functions), procedures: tagged('procedures', testData.mockSchema.procedures) }

// Neo4j's analyser is CPU-bound: ~0.2 s a statement, ~15 s for the file on an idle machine;
// the default 2-minute limit is too tight when every core is busy with other test files.
t.setTimeout(600_000)

t.test('every statement the store sends is valid Cypher 5 with the parameters it is sent with', async t => {
  await exercise()
  const every = new Set([...Object.values(Q), ...Object.values(PQ), ...Object.values(CQ), ...SCHEMA, vectorIndexStatement('entity', 8), vectorIndexStatement('fact', 8), vectorIndexStatement('entity', 4),
    vectorIndexStatement('turn', 8), vectorIndexStatement('goal', 8), vectorIndexStatement('strategy', 8)])
  const sent = new Set(driver.calls.map(c => c.query))
  t.same([...every].filter(q => !sent.has(q)), [], 'every statement was exercised')
  t.same([...sent].filter(q => !every.has(q)), [], 'and nothing else was sent')
  // Each statement is linted once, with the parameters of its first call; every later call
  // of it must pass the same parameter names (so that one lint speaks for all of them).
  const first = new Map<string, typeof driver.calls[number]>()
  for (const c of driver.calls) {
    const seen = first.get(c.query)
    if (seen !== undefined) {
      if (Object.keys(seen.params).sort().join() !== Object.keys(c.params).sort().join()) t.fail(`different parameters for one statement: ${c.query.split('\n')[0]}`)
      continue
    }
    first.set(c.query, c)
  }
  for (const c of first.values()) {
    const { diagnostics } = lintCypherQuery(c.query, { ...SCHEMA_FOR_LINT, parameters: c.params, defaultLanguage: 'CYPHER 5' })
    const problems = diagnostics.filter(d => d.severity === 1 || /deprecat/i.test(String(d.message))).map(d => `${String(d.message)} at ${d.offsets.start}`)
    t.same(problems, [], c.query.split('\n')[0])
  }
})

t.test('the linter does catch a broken statement, a misspelt function and a missing parameter', async t => {
  const lint = (q: string, parameters: Record<string, unknown> = {}): string[] =>
    lintCypherQuery(q, { ...SCHEMA_FOR_LINT, parameters, defaultLanguage: 'CYPHER 5' }).diagnostics.filter(d => d.severity === 1).map(d => String(d.message))
  t.match(lint('MATCH (e:Entity RETURN e'), [/Invalid input/])
  t.match(lint('RETURN toLowr($x) AS y', { x: 'a' }), [/Function toLowr is not present/])
  t.match(lint('MATCH (e:Entity {id: $id}) RETURN e'), [/Parameter \$id is not defined/])
  t.same(lint('MATCH (e:Entity {id: $id}) RETURN e', { id: 'x' }), [])
})
