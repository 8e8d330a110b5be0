// Driver values -> contract values. Neo4j integers arrive as the driver's Integer (64-bit,
// lossless), timestamps as its DateTime (nanoseconds, with a zone); the contract speaks
// plain numbers and ISO strings. Entity properties are kept as JSON text (a node property
// cannot hold a map).
import neo4j from 'neo4j-driver'
import type { Entity, Fact } from '@agentd/sdk/contracts/memory-stores'

export type Row = Record<string, unknown>

export function num (v: unknown): number {
  if (neo4j.isInt(v)) return v.toNumber()
  if (typeof v === 'number') return v
  if (typeof v === 'bigint') return Number(v)
  return v === null || v === undefined ? 0 : Number(v)
}

export function iso (v: unknown): string {
  if (neo4j.isDateTime(v)) {
    // toStandardDate needs an offset; a DateTime with a named zone only has its id, so it
    // goes through its ISO text (Date parses the millisecond part of nanoseconds).
    if (v.timeZoneOffsetSeconds !== undefined) return v.toStandardDate().toISOString()
    return new Date(v.toString().replace(/(\.\d{3})\d+/, '$1').replace(/\[.*\]$/, '')).toISOString()
  }
  if (v instanceof Date) return v.toISOString()
  return String(v)
}
export const isoOrNull = (v: unknown): string | null => v === null || v === undefined ? null : iso(v)
const strOrNull = (v: unknown): string | null => v === null || v === undefined ? null : String(v)
const strArr = (v: unknown): string[] => Array.isArray(v) ? v.map(String) : []

function obj (v: unknown): Record<string, unknown> {
  if (typeof v !== 'string' || v === '') return {}
  try {
    const o: unknown = JSON.parse(v)
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? o as Record<string, unknown> : {}
  } catch { return {} }
}
export const parseProperties = obj

export const toEntity = (r: Row): Entity => ({
  id: String(r.id), name: String(r.name), type: String(r.type), aliases: strArr(r.aliases), description: strOrNull(r.description),
  salience: num(r.salience), properties: obj(r.properties), first_seen: iso(r.first_seen), last_accessed: iso(r.last_accessed),
  access_count: num(r.access_count), channel: String(r.channel), conversation_count: num(r.conversation_count),
})

export const toFact = (r: Row): Fact => ({
  id: String(r.id), claim: String(r.claim), claim_hash: String(r.claim_hash), confidence: num(r.confidence), source: String(r.source) as Fact['source'],
  source_turn_id: strOrNull(r.source_turn_id), entity_ids: strArr(r.entity_ids).sort(), created_at: iso(r.created_at),
  channel: String(r.channel), last_accessed: iso(r.last_accessed), access_count: num(r.access_count), salience: num(r.salience),
  temporal_context: strOrNull(r.temporal_context) as Fact['temporal_context'],
  superseded_at: isoOrNull(r.superseded_at), superseded_by_id: strOrNull(r.superseded_by_id),
  supersedes_id: strOrNull(r.supersedes_id), flagged_for_review: r.flagged_for_review === true,
  subject_id: strOrNull(r.subject_id), attribute: strOrNull(r.attribute), value: strOrNull(r.value), conversation_count: num(r.conversation_count),
})

/** Lucene query text for full-text search: the query's words only (letters and digits), so no operator can get through. */
export function fulltextQuery (text: string): string | undefined {
  const words = [...new Set(text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32)
  return words.length === 0 ? undefined : words.join(' ')
}
