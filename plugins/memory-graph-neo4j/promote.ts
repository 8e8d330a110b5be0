// Moving an entity or a fact to another channel (promotion to `_global`). When the target
// channel already holds the same item, the moved one merges into it: its links and
// relationships move over, counts and confidence combine, and the node goes. Runs inside
// the caller's write transaction.
import type { CypherTx } from './driver.ts'
import { parseProperties, type Row } from './rows.ts'

export const PQ = {
  fact: 'MATCH (f:Fact {id: $id}) RETURN f.claim_hash AS claim_hash, f.channel AS channel',
  factThere: 'MATCH (f:Fact {channel: $channel, claim_hash: $claim_hash}) RETURN f.id AS id',
  moveFact: 'MATCH (f:Fact {id: $id}) SET f.channel = $channel',
  mergeFact: `MATCH (s:Fact {id: $id}) MATCH (t:Fact {id: $target})
    SET t.access_count = t.access_count + s.access_count,
      t.confidence = CASE WHEN s.confidence > t.confidence THEN s.confidence ELSE t.confidence END,
      t.salience = CASE WHEN s.salience > t.salience THEN s.salience ELSE t.salience END,
      t.last_accessed = CASE WHEN s.last_accessed > t.last_accessed THEN s.last_accessed ELSE t.last_accessed END,
      t.conversation_ids = coalesce(t.conversation_ids, []) + [c IN coalesce(s.conversation_ids, []) WHERE NOT c IN coalesce(t.conversation_ids, [])]`,
  factLinks: `MATCH (s:Fact {id: $id})-[:ABOUT]->(e:Entity) MATCH (t:Fact {id: $target})
    MERGE (t)-[:ABOUT]->(e)`,
  factSupersededBy: `MATCH (s:Fact {id: $id})<-[:SUPERSEDES]-(n:Fact) MATCH (t:Fact {id: $target}) WHERE n <> t
    MERGE (n)-[:SUPERSEDES]->(t)`,
  factSupersedes: `MATCH (s:Fact {id: $id})-[:SUPERSEDES]->(o:Fact) MATCH (t:Fact {id: $target}) WHERE o <> t
    MERGE (t)-[:SUPERSEDES]->(o)`,
  dropFact: 'MATCH (f:Fact {id: $id}) DETACH DELETE f',

  entity: 'MATCH (e:Entity {id: $id}) RETURN e.name_key AS name_key, e.type AS type, e.channel AS channel',
  entityThere: `MATCH (t:Entity {channel: $channel, name_key: $name_key, type: $type}) MATCH (s:Entity {id: $id})
    RETURN t.id AS id, t.aliases AS t_aliases, s.aliases AS s_aliases, t.properties AS t_properties, s.properties AS s_properties`,
  moveEntity: 'MATCH (e:Entity {id: $id}) SET e.channel = $channel',
  mergeEntity: `MATCH (s:Entity {id: $id}) MATCH (t:Entity {id: $target})
    SET t.access_count = t.access_count + s.access_count,
      t.salience = CASE WHEN s.salience > t.salience THEN s.salience ELSE t.salience END,
      t.description = coalesce(t.description, s.description),
      t.aliases = $aliases, t.alias_text = $alias_text, t.properties = $properties,
      t.conversation_ids = coalesce(t.conversation_ids, []) + [c IN coalesce(s.conversation_ids, []) WHERE NOT c IN coalesce(t.conversation_ids, [])]`,
  // Facts about the moved entity are about the one that remains.
  entitySubject: 'MATCH (f:Fact {subject_id: $id}) SET f.subject_id = $target',
  entityFacts: `MATCH (f:Fact)-[:ABOUT]->(:Entity {id: $id}) MATCH (t:Entity {id: $target})
    MERGE (f)-[:ABOUT]->(t)`,
  // An edge the surviving entity already has stays single (MERGE on its type).
  entityOut: `MATCH (s:Entity {id: $id})-[r:RELATES_TO]->(o:Entity) MATCH (t:Entity {id: $target}) WHERE o <> s AND o <> t
    MERGE (t)-[n:RELATES_TO {type: r.type}]->(o)
    ON CREATE SET n.id = randomUUID(), n.confidence = r.confidence, n.channel = r.channel, n.created_at = r.created_at`,
  entityIn: `MATCH (o:Entity)-[r:RELATES_TO]->(s:Entity {id: $id}) MATCH (t:Entity {id: $target}) WHERE o <> s AND o <> t
    MERGE (o)-[n:RELATES_TO {type: r.type}]->(t)
    ON CREATE SET n.id = randomUUID(), n.confidence = r.confidence, n.channel = r.channel, n.created_at = r.created_at`,
  dropEntity: 'MATCH (e:Entity {id: $id}) DETACH DELETE e',
} as const

const first = async (tx: CypherTx, q: string, p: Record<string, unknown>): Promise<Row | undefined> => {
  const r = await tx.run(q, p)
  return r.records[0]?.toObject() as Row | undefined
}

export async function moveToChannel (tx: CypherTx, kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  return kind === 'fact' ? await moveFact(tx, id, channel) : await moveEntity(tx, id, channel)
}

async function moveFact (tx: CypherTx, id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  const row = await first(tx, PQ.fact, { id })
  if (row === undefined) return undefined
  if (row.channel === channel) return { id, merged: false }
  const there = await first(tx, PQ.factThere, { channel, claim_hash: row.claim_hash })
  if (there === undefined) {
    await tx.run(PQ.moveFact, { id, channel })
    return { id, merged: false }
  }
  const target = String(there.id)
  for (const q of [PQ.mergeFact, PQ.factLinks, PQ.factSupersededBy, PQ.factSupersedes, PQ.dropFact]) await tx.run(q, { id, target })
  return { id: target, merged: true }
}

/** The union of two alias lists (first seen wins the spelling), and the text the full-text index reads. */
export function mergeAliases (a: unknown, b: unknown): { aliases: string[], alias_text: string } {
  const out = [...new Set([...(Array.isArray(a) ? a : []), ...(Array.isArray(b) ? b : [])].map(String))]
  return { aliases: out, alias_text: out.join(' ') }
}

async function moveEntity (tx: CypherTx, id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  const row = await first(tx, PQ.entity, { id })
  if (row === undefined) return undefined
  if (row.channel === channel) return { id, merged: false }
  const there = await first(tx, PQ.entityThere, { channel, name_key: row.name_key, type: row.type, id })
  if (there === undefined) {
    await tx.run(PQ.moveEntity, { id, channel })
    return { id, merged: false }
  }
  const target = String(there.id)
  // The surviving entity's properties win over the moved one's, as in the SQL store.
  const properties = JSON.stringify({ ...parseProperties(there.s_properties), ...parseProperties(there.t_properties) })
  await tx.run(PQ.mergeEntity, { id, target, ...mergeAliases(there.t_aliases, there.s_aliases), properties })
  for (const q of [PQ.entityFacts, PQ.entitySubject, PQ.entityOut, PQ.entityIn, PQ.dropEntity]) await tx.run(q, { id, target })
  return { id: target, merged: true }
}

