// Re-embedding support shared by the SQL stores: find vectors another embedder (or
// another size) made, and write new ones. Each store lists its tables and the SQL
// expression of the text its vectors were made from (what the memory service embeds).
import { sql, type Kysely } from 'kysely'
import type { EmbeddingRef, StaleEmbedding, StaleQuery } from '../../contracts/memory-stores.ts'
import type { SqlReady } from './sql-ready.ts'
import { vectorValue } from './vector.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `context`: an SQL expression (JSON text, an array of strings oldest first) of the earlier
 * texts a vector is read with; `speaker`: one (text) of who said the text, read with each of its sentences.
 */
export interface VectorSource { kind: string, table: string, text: string, context?: string, speaker?: string }

export async function staleEmbeddings (db: Kysely<unknown>, sources: VectorSource[], q: StaleQuery): Promise<StaleEmbedding[]> {
  const out: StaleEmbedding[] = []
  for (const s of sources) {
    if (out.length >= q.limit) break
    // Resuming by primary key walks each row once over the whole job (from the start every
    // batch would step over all the rows already done again).
    const after = q.after?.[s.kind]
    const r = await sql<{ id: string, text: string, context: string | null, speaker: string | null }>`SELECT id::text AS id, ${sql.raw(s.text)} AS text,
        ${sql.raw(s.context ?? 'NULL::text')} AS context, ${sql.raw(s.speaker ?? 'NULL::text')} AS speaker FROM ${sql.table(s.table)}
      WHERE embedder IS NOT NULL AND (embedder <> ${q.embedder} OR embedding_dims <> ${q.dimensions}::int)
        ${after === undefined || !UUID.test(after) ? sql`` : sql`AND id > ${after}::uuid`}
      ORDER BY id LIMIT ${q.limit - out.length}`.execute(db)
    for (const row of r.rows) {
      const context = row.context === null ? undefined : (JSON.parse(row.context) as unknown[]).filter((x): x is string => typeof x === 'string')
      out.push({ kind: s.kind, id: row.id, text: row.text ?? '', ...(context === undefined ? {} : { context }), ...(row.speaker === null ? {} : { speaker: row.speaker }) })
    }
  }
  return out
}

export async function setEmbeddings (db: Kysely<unknown>, ready: SqlReady, sources: VectorSource[], items: Array<{ kind: string, id: string, embedding: EmbeddingRef | null }>): Promise<number> {
  const table = (kind: string): string => {
    const s = sources.find(x => x.kind === kind)
    if (s === undefined) throw new Error(`This store keeps no vectors of kind "${kind}" (it has ${sources.map(x => x.kind).join(', ')}).`)
    return s.table
  }
  // Indexes first and outside the transaction: PGlite has one connection, which the transaction holds.
  for (const it of items) if (it.embedding !== null) await ready.index(table(it.kind), it.embedding.vector.length)
  return await db.transaction().execute(async trx => {
    let n = 0
    for (const it of items) {
      if (!UUID.test(it.id)) continue
      const e = it.embedding
      const r = await sql`UPDATE ${sql.table(table(it.kind))} SET embedding = ${vectorValue(ready.mode, e?.vector)},
        embedder = ${e?.embedder ?? null}, embedding_dims = ${e?.vector.length ?? null} WHERE id = ${it.id}::uuid`.execute(trx)
      n += Number(r.numAffectedRows ?? 0)
    }
    return n
  })
}
