// The graph store's queries for consolidation: entity linking by name or alias, facts by
// claim hash, the current facts about a subject's attribute (supersession candidates), and
// the conversations each entity and fact was extracted from (salience, promotion).
import { sql, type Kysely } from 'kysely'
import type { Row } from '@agentd/sdk/kits/sql'

/** Counts a conversation once for an entity or a fact. */
export async function noteConversation (db: Kysely<unknown>, kind: 'entity' | 'fact', id: string, conversationId: string | null | undefined): Promise<void> {
  if (conversationId === null || conversationId === undefined || conversationId === '') return
  if (kind === 'entity') await sql`INSERT INTO entity_conversations (entity_id, conversation_id) VALUES (${id}::uuid, ${conversationId}) ON CONFLICT DO NOTHING`.execute(db)
  else await sql`INSERT INTO fact_conversations (fact_id, conversation_id) VALUES (${id}::uuid, ${conversationId}) ON CONFLICT DO NOTHING`.execute(db)
}

/** Entities whose name or an alias is `name` (any case), in the order of `channels`. */
export async function findEntityRows (db: Kysely<unknown>, cols: ReturnType<typeof sql.raw>, q: { channels: string[], name: string, limit: number }): Promise<Row[]> {
  const r = await sql<Row>`SELECT ${cols} FROM entities e
    WHERE e.channel = ANY(${q.channels}::text[])
      AND (lower(e.name) = lower(${q.name}) OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(e.aliases) a WHERE lower(a) = lower(${q.name})))
    ORDER BY array_position(${q.channels}::text[], e.channel), e.salience DESC, e.id LIMIT ${q.limit}`.execute(db)
  return r.rows
}

export async function findFactRow (db: Kysely<unknown>, cols: ReturnType<typeof sql.raw>, q: { channels: string[], claim_hash: string }): Promise<Row | undefined> {
  const r = await sql<Row>`SELECT ${cols} FROM facts f WHERE f.channel = ANY(${q.channels}::text[]) AND f.claim_hash = ${q.claim_hash}
    ORDER BY array_position(${q.channels}::text[], f.channel) LIMIT 1`.execute(db)
  return r.rows[0]
}

export async function currentFactRows (db: Kysely<unknown>, cols: ReturnType<typeof sql.raw>, q: { channels: string[], subject_id: string, attribute: string }): Promise<Row[]> {
  const r = await sql<Row>`SELECT ${cols} FROM facts f
    WHERE f.subject_id = ${q.subject_id}::uuid AND f.attribute = ${q.attribute} AND f.channel = ANY(${q.channels}::text[])
      AND f.superseded_at IS NULL AND NOT f.flagged_for_review AND (f.temporal_context IS NULL OR f.temporal_context = 'current')
    ORDER BY f.created_at, f.id`.execute(db)
  return r.rows
}

/** Version 4 of the graph schema. */
export async function consolidationSchema (db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE facts ADD COLUMN IF NOT EXISTS subject_id uuid`.execute(db)
  await sql`ALTER TABLE facts ADD COLUMN IF NOT EXISTS attribute text`.execute(db)
  await sql`ALTER TABLE facts ADD COLUMN IF NOT EXISTS value text`.execute(db)
  await sql`CREATE INDEX IF NOT EXISTS facts_subject_attribute ON facts (subject_id, attribute) WHERE superseded_at IS NULL`.execute(db)
  await sql`CREATE INDEX IF NOT EXISTS facts_hash ON facts (claim_hash)`.execute(db)
  await sql`CREATE TABLE IF NOT EXISTS entity_conversations (
    entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE, conversation_id text NOT NULL,
    PRIMARY KEY (entity_id, conversation_id))`.execute(db)
  await sql`CREATE TABLE IF NOT EXISTS fact_conversations (
    fact_id uuid NOT NULL REFERENCES facts(id) ON DELETE CASCADE, conversation_id text NOT NULL,
    PRIMARY KEY (fact_id, conversation_id))`.execute(db)
}
