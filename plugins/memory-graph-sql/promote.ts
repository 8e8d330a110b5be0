// Moving an entity or a fact to another channel (promotion to `_global` by a
// consolidation job). When the target channel already holds the same item, the moved one
// merges into it: its links and relationships are re-pointed, counts and confidence
// combined, and the row removed. Runs inside the caller's transaction.
import { sql, type Kysely } from 'kysely'
import type { Row } from '@agentd/sdk/kits/sql'

export async function moveToChannel (trx: Kysely<unknown>, kind: 'entity' | 'fact', id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  return kind === 'fact' ? await moveFact(trx, id, channel) : await moveEntity(trx, id, channel)
}

async function moveFact (trx: Kysely<unknown>, id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  const row = (await sql<Row>`SELECT claim_hash, channel FROM facts WHERE id = ${id}::uuid FOR UPDATE`.execute(trx)).rows[0]
  if (row === undefined) return undefined
  if (row.channel === channel) return { id, merged: false }
  const there = (await sql<Row>`SELECT id FROM facts WHERE channel = ${channel} AND claim_hash = ${row.claim_hash} FOR UPDATE`.execute(trx)).rows[0]
  if (there === undefined) {
    await sql`UPDATE facts SET channel = ${channel} WHERE id = ${id}::uuid`.execute(trx)
    return { id, merged: false }
  }
  const target = String(there.id)
  await sql`UPDATE facts t SET access_count = t.access_count + s.access_count, confidence = GREATEST(t.confidence, s.confidence),
      salience = GREATEST(t.salience, s.salience), last_accessed = GREATEST(t.last_accessed, s.last_accessed)
    FROM facts s WHERE t.id = ${target}::uuid AND s.id = ${id}::uuid`.execute(trx)
  await sql`INSERT INTO fact_entities (fact_id, entity_id) SELECT ${target}::uuid, entity_id FROM fact_entities WHERE fact_id = ${id}::uuid ON CONFLICT DO NOTHING`.execute(trx)
  await sql`INSERT INTO fact_conversations (fact_id, conversation_id) SELECT ${target}::uuid, conversation_id FROM fact_conversations WHERE fact_id = ${id}::uuid ON CONFLICT DO NOTHING`.execute(trx)
  await sql`UPDATE facts SET superseded_by_id = ${target}::uuid WHERE superseded_by_id = ${id}::uuid`.execute(trx)
  await sql`UPDATE facts SET supersedes_id = ${target}::uuid WHERE supersedes_id = ${id}::uuid`.execute(trx)
  await sql`DELETE FROM facts WHERE id = ${id}::uuid`.execute(trx)
  return { id: target, merged: true }
}

async function moveEntity (trx: Kysely<unknown>, id: string, channel: string): Promise<{ id: string, merged: boolean } | undefined> {
  const row = (await sql<Row>`SELECT name, type, channel FROM entities WHERE id = ${id}::uuid FOR UPDATE`.execute(trx)).rows[0]
  if (row === undefined) return undefined
  if (row.channel === channel) return { id, merged: false }
  const there = (await sql<Row>`SELECT id FROM entities WHERE channel = ${channel} AND lower(name) = lower(${row.name}) AND type = ${row.type} FOR UPDATE`.execute(trx)).rows[0]
  if (there === undefined) {
    await sql`UPDATE entities SET channel = ${channel} WHERE id = ${id}::uuid`.execute(trx)
    return { id, merged: false }
  }
  const target = String(there.id)
  await sql`UPDATE entities t SET access_count = t.access_count + s.access_count, salience = GREATEST(t.salience, s.salience),
      description = COALESCE(t.description, s.description), properties = s.properties || t.properties,
      aliases = (SELECT COALESCE(jsonb_agg(DISTINCT a), '[]'::jsonb) FROM jsonb_array_elements(t.aliases || s.aliases) a)
    FROM entities s WHERE t.id = ${target}::uuid AND s.id = ${id}::uuid`.execute(trx)
  await sql`INSERT INTO fact_entities (fact_id, entity_id) SELECT fact_id, ${target}::uuid FROM fact_entities WHERE entity_id = ${id}::uuid ON CONFLICT DO NOTHING`.execute(trx)
  await sql`INSERT INTO entity_conversations (entity_id, conversation_id) SELECT ${target}::uuid, conversation_id FROM entity_conversations WHERE entity_id = ${id}::uuid ON CONFLICT DO NOTHING`.execute(trx)
  await sql`UPDATE facts SET subject_id = ${target}::uuid WHERE subject_id = ${id}::uuid`.execute(trx)
  // Relationships move to the surviving entity (an edge it already has stays single);
  // the moved entity's own rows then go with it (ON DELETE CASCADE).
  await sql`INSERT INTO relationships (id, source_id, target_id, type, confidence, channel, created_at)
    SELECT gen_random_uuid(), ${target}::uuid, target_id, type, confidence, channel, created_at FROM relationships
    WHERE source_id = ${id}::uuid AND target_id NOT IN (${id}::uuid, ${target}::uuid) ON CONFLICT DO NOTHING`.execute(trx)
  await sql`INSERT INTO relationships (id, source_id, target_id, type, confidence, channel, created_at)
    SELECT gen_random_uuid(), source_id, ${target}::uuid, type, confidence, channel, created_at FROM relationships
    WHERE target_id = ${id}::uuid AND source_id NOT IN (${id}::uuid, ${target}::uuid) ON CONFLICT DO NOTHING`.execute(trx)
  await sql`DELETE FROM entities WHERE id = ${id}::uuid`.execute(trx)
  return { id: target, merged: true }
}
