// What the store creates in Neo4j, every statement idempotent (Neo4j 5 `IF NOT EXISTS`),
// run once per store before its first query. docs/api.md lists the same.
export const SCHEMA: readonly string[] = [
  // Identity: ids, and the duplicate keys the contract defines (an entity per channel,
  // name in any case and type; a fact per channel and claim hash).
  'CREATE CONSTRAINT agentd_entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE',
  'CREATE CONSTRAINT agentd_fact_id IF NOT EXISTS FOR (f:Fact) REQUIRE f.id IS UNIQUE',
  'CREATE CONSTRAINT agentd_entity_identity IF NOT EXISTS FOR (e:Entity) REQUIRE (e.channel, e.name_key, e.type) IS UNIQUE',
  'CREATE CONSTRAINT agentd_fact_identity IF NOT EXISTS FOR (f:Fact) REQUIRE (f.channel, f.claim_hash) IS UNIQUE',
  // Copies of the relational store's items (copies.ts), by id.
  'CREATE CONSTRAINT agentd_conversation_id IF NOT EXISTS FOR (c:Conversation) REQUIRE c.id IS UNIQUE',
  'CREATE CONSTRAINT agentd_turn_id IF NOT EXISTS FOR (t:Turn) REQUIRE t.id IS UNIQUE',
  'CREATE CONSTRAINT agentd_goal_id IF NOT EXISTS FOR (g:Goal) REQUIRE g.id IS UNIQUE',
  'CREATE CONSTRAINT agentd_strategy_id IF NOT EXISTS FOR (s:Strategy) REQUIRE s.id IS UNIQUE',
  // Channel filters and deletion.
  'CREATE INDEX agentd_entity_channel IF NOT EXISTS FOR (e:Entity) ON (e.channel)',
  'CREATE INDEX agentd_fact_channel IF NOT EXISTS FOR (f:Fact) ON (f.channel)',
  'CREATE INDEX agentd_relates_channel IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.channel)',
  'CREATE INDEX agentd_conversation_channel IF NOT EXISTS FOR (c:Conversation) ON (c.channel)',
  'CREATE INDEX agentd_turn_channel IF NOT EXISTS FOR (t:Turn) ON (t.channel)',
  'CREATE INDEX agentd_goal_channel IF NOT EXISTS FOR (g:Goal) ON (g.channel)',
  'CREATE INDEX agentd_strategy_channel IF NOT EXISTS FOR (s:Strategy) ON (s.channel)',
  // A conversation's turns (deleting it; NEXT links by index), a goal's subgoals.
  'CREATE INDEX agentd_turn_conversation IF NOT EXISTS FOR (t:Turn) ON (t.conversation_id, t.index)',
  'CREATE INDEX agentd_goal_parent IF NOT EXISTS FOR (g:Goal) ON (g.parent_goal_id)',
  // Consolidation: a fact by claim hash in any channel; the current facts about a subject's attribute.
  'CREATE INDEX agentd_fact_claim_hash IF NOT EXISTS FOR (f:Fact) ON (f.claim_hash)',
  'CREATE INDEX agentd_fact_subject IF NOT EXISTS FOR (f:Fact) ON (f.subject_id, f.attribute)',
  // Literal substring search in lists (`CONTAINS` on the lower-cased text is what a text index serves).
  'CREATE TEXT INDEX agentd_entity_name_key IF NOT EXISTS FOR (e:Entity) ON (e.name_key)',
  'CREATE TEXT INDEX agentd_fact_claim_key IF NOT EXISTS FOR (f:Fact) ON (f.claim_key)',
  // Keyword search (searchEntities, searchFacts): Lucene full text, ranked.
  'CREATE FULLTEXT INDEX agentd_entity_text IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.alias_text, e.description]',
  'CREATE FULLTEXT INDEX agentd_fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.claim]',
  // Keyword search over the copied turns (searchTurns: the hybrid recall technique's keyword list).
  'CREATE FULLTEXT INDEX agentd_turn_text IF NOT EXISTS FOR (t:Turn) ON EACH [t.content]',
]

export const ENTITY_TEXT_INDEX = 'agentd_entity_text'
export const FACT_TEXT_INDEX = 'agentd_fact_text'
export const TURN_TEXT_INDEX = 'agentd_turn_text'

export type VectorKind = 'entity' | 'fact' | 'turn' | 'goal' | 'strategy'
const LABEL: Record<VectorKind, string> = { entity: 'Entity', fact: 'Fact', turn: 'Turn', goal: 'Goal', strategy: 'Strategy' }

/** Neo4j 5's largest vector index. */
export const MAX_DIMENSIONS = 4096

function checkDims (dims: number): void {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMENSIONS) throw new Error(`A vector must have 1-${MAX_DIMENSIONS} dimensions for a Neo4j vector index, got ${dims}.`)
}

/**
 * A vector index holds one size, and embedders differ (8 to 3072 numbers), so vectors of
 * each size live in their own property, `vec_<dims>`, with its own index. The name is made
 * from the vector's length, a checked integer, never from a caller's text.
 */
export function vectorProperty (dims: number): string { checkDims(dims); return `vec_${dims}` }
export function vectorIndexName (kind: VectorKind, dims: number): string { checkDims(dims); return `agentd_${kind}_vec_${dims}` }

export function vectorIndexStatement (kind: VectorKind, dims: number): string {
  const name = vectorIndexName(kind, dims)
  return `CREATE VECTOR INDEX ${name} IF NOT EXISTS FOR (n:${LABEL[kind]}) ON (n.${vectorProperty(dims)}) ` +
    `OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: 'cosine'}}`
}
