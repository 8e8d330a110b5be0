// What the SQL graph store's roles share (graph-*.ts): columns, row mappers, what each
// table's vector was made from, and the keyword query's words.
import { sql } from 'kysely'
import type { Entity, Fact } from '@agentd/sdk/contracts/memory-stores'
import { iso, isoOrNull, num, obj, strArr, type Row, type VectorSource } from '@agentd/sdk/kits/sql'

export const ENTITY_COLS = sql.raw(`e.id, e.name, e.type, e.aliases, e.description, e.salience, e.properties, e.first_seen, e.last_accessed, e.access_count, e.channel,
  (SELECT count(*)::int FROM entity_conversations ec WHERE ec.entity_id = e.id) AS conversation_count`)
export const FACT_COLS = sql.raw(`f.id, f.claim, f.claim_hash, f.confidence, f.source, f.source_turn_id, f.created_at, f.channel, f.last_accessed,
  f.access_count, f.salience, f.temporal_context, f.superseded_at, f.superseded_by_id, f.supersedes_id, f.flagged_for_review,
  f.subject_id, f.attribute, f.value, (SELECT count(*)::int FROM fact_conversations fc WHERE fc.fact_id = f.id) AS conversation_count,
  COALESCE((SELECT json_agg(fe.entity_id::text ORDER BY fe.entity_id) FROM fact_entities fe WHERE fe.fact_id = f.id), '[]'::json) AS entity_ids`)

export const toEntity = (r: Row): Entity => ({
  id: String(r.id), name: String(r.name), type: String(r.type), aliases: strArr(r.aliases), description: r.description === null ? null : String(r.description),
  salience: num(r.salience), properties: obj(r.properties), first_seen: iso(r.first_seen), last_accessed: iso(r.last_accessed),
  access_count: num(r.access_count), channel: String(r.channel), conversation_count: num(r.conversation_count ?? 0),
})
export const toFact = (r: Row): Fact => ({
  id: String(r.id), claim: String(r.claim), claim_hash: String(r.claim_hash), confidence: num(r.confidence), source: String(r.source) as Fact['source'],
  source_turn_id: r.source_turn_id === null ? null : String(r.source_turn_id), entity_ids: strArr(r.entity_ids), created_at: iso(r.created_at),
  channel: String(r.channel), last_accessed: iso(r.last_accessed), access_count: num(r.access_count), salience: num(r.salience),
  temporal_context: r.temporal_context === null ? null : String(r.temporal_context) as Fact['temporal_context'],
  superseded_at: isoOrNull(r.superseded_at), superseded_by_id: r.superseded_by_id === null ? null : String(r.superseded_by_id),
  supersedes_id: r.supersedes_id === null ? null : String(r.supersedes_id), flagged_for_review: Boolean(r.flagged_for_review),
  subject_id: r.subject_id === null || r.subject_id === undefined ? null : String(r.subject_id), attribute: r.attribute === null || r.attribute === undefined ? null : String(r.attribute),
  value: r.value === null || r.value === undefined ? null : String(r.value), conversation_count: num(r.conversation_count ?? 0),
})

/** What each table's vector was made from: the same text the memory service embeds. */
export const SOURCES: VectorSource[] = [
  { kind: 'entity', table: 'entities', text: "btrim(name || ' ' || COALESCE(description, ''))" },
  { kind: 'fact', table: 'facts', text: 'claim' },
]

/** Words of a keyword query as a tsquery matching any of them; letters and digits only, so nothing in it is an operator. */
export function anyWordQuery (text: string): string | undefined {
  const words = [...new Set(text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32)
  return words.length === 0 ? undefined : words.join(' | ')
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
