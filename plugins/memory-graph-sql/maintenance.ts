// The graph's maintenance, offered to the job plugins (GraphMaintenance; SqlGraphStore's
// decay and linkEntities; job-decay and job-entity-linking schedule them):
// - decay: an entity's or a current fact's salience halves every `half_life_days` it
//   goes unrecalled. Items recalled within `min_idle_hours` are left alone; an item's
//   decay counts from its last access or its last decay, whichever is later, so running
//   the job more often does not decay faster.
// - entity linking: merges duplicate entities of one type: the same normalised name
//   (case, punctuation and spacing ignored) or a name equal to the other's alias, or
//   embeddings (same embedder) at least `similarity` alike. Within a channel, or a
//   channel's entity into its `_global` twin; never across two other channels. The older
//   entity survives (the `_global` one across channels), takes the other's name as an
//   alias, its facts, relationships, aliases, properties and access counts; each merge is
//   a row of entity_merges (both ids, the reason, the score, the merged entity as it was),
//   and once committed it is handed to `onMerged` (the job plugin runs the
//   `memory:entity-merged` hook with it, so the items' histories show the merge).
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { EntityMerged } from '@agentd/sdk/contracts/memory-stores'
import { iso, num, type Row } from '@agentd/sdk/kits/sql'

const GLOBAL = '_global'

/** The SQL normalisation of a name: lower case, every run of non-alphanumerics one space, trimmed. */
const norm = (col: string): ReturnType<typeof sql.raw> => sql.raw(`btrim(regexp_replace(lower(${col}), '[^[:alnum:]]+', ' ', 'g'))`)

export async function decay (db: Kysely<unknown>, halfLifeDays: number, minIdleHours: number): Promise<{ entities: number, facts: number }> {
  const halfLife = halfLifeDays * 86_400
  const run = async (table: 'entities' | 'facts', extra: ReturnType<typeof sql.raw>): Promise<number> => {
    const since = sql.raw('GREATEST(last_accessed, COALESCE(salience_decayed_at, last_accessed))')
    const r = await sql`UPDATE ${sql.table(table)} SET
        salience = salience * power(0.5, extract(epoch FROM now() - ${since}) / ${halfLife}::float8),
        salience_decayed_at = now()
      WHERE last_accessed < now() - make_interval(secs => ${minIdleHours * 3600}::float8) AND salience > 0 ${extra}`.execute(db)
    return Number(r.numAffectedRows ?? 0)
  }
  return { entities: await run('entities', sql.raw('')), facts: await run('facts', sql.raw('AND superseded_at IS NULL')) }
}

interface Pair { a: string, b: string, reason: 'name' | 'alias' | 'embedding', score: number | null }

/** Candidate duplicate pairs, best first: name matches, then alias matches, then embeddings. */
async function candidates (db: Kysely<unknown>, mode: 'vector' | 'real[]', similarity: number, limit: number): Promise<Pair[]> {
  const channelOk = sql.raw(`(x.channel = y.channel OR y.channel = '${GLOBAL}')`)
  const byName = await sql<Row>`SELECT x.id AS a, y.id AS b FROM entities x JOIN entities y
      ON x.type = y.type AND x.id <> y.id AND ${norm('x.name')} = ${norm('y.name')} AND ${channelOk}
      AND (x.channel <> y.channel OR (x.first_seen, x.id) > (y.first_seen, y.id))
    ORDER BY y.first_seen, y.id LIMIT ${limit}`.execute(db)
  const byAlias = await sql<Row>`SELECT DISTINCT x.id AS a, y.id AS b FROM entities x JOIN entities y
      ON x.type = y.type AND x.id <> y.id AND ${channelOk}
      AND (x.channel <> y.channel OR (x.first_seen, x.id) > (y.first_seen, y.id))
    WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(y.aliases) al WHERE ${norm('al')} = ${norm('x.name')})
       OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(x.aliases) al WHERE ${norm('al')} = ${norm('y.name')})
    LIMIT ${limit}`.execute(db)
  const sim = mode === 'vector' ? sql.raw('(1 - (x.embedding <=> y.embedding))') : sql.raw('agentd_dot(x.embedding, y.embedding)')
  const byEmbedding = await sql<Row>`SELECT x.id AS a, y.id AS b, ${sim} AS score FROM entities x JOIN entities y
      ON x.type = y.type AND x.id <> y.id AND ${channelOk}
      AND (x.channel <> y.channel OR (x.first_seen, x.id) > (y.first_seen, y.id))
      AND x.embedder = y.embedder AND x.embedding_dims = y.embedding_dims
    WHERE x.embedding IS NOT NULL AND y.embedding IS NOT NULL AND ${sim} >= ${similarity}
    ORDER BY score DESC LIMIT ${limit}`.execute(db)
  return [
    ...byName.rows.map(r => ({ a: String(r.a), b: String(r.b), reason: 'name' as const, score: null })),
    ...byAlias.rows.map(r => ({ a: String(r.a), b: String(r.b), reason: 'alias' as const, score: null })),
    ...byEmbedding.rows.map(r => ({ a: String(r.a), b: String(r.b), reason: 'embedding' as const, score: num(r.score) })),
  ]
}

/** Merges entity `loserId` into `survivorId` in the caller's transaction, and records it; undefined when either is gone. */
export async function mergeEntity (trx: Kysely<unknown>, loserId: string, survivorId: string, reason: string, score: number | null): Promise<EntityMerged | undefined> {
  const loser = (await sql<Row>`SELECT * FROM entities WHERE id = ${loserId}::uuid FOR UPDATE`.execute(trx)).rows[0]
  const survivor = (await sql<Row>`SELECT id, name, type, channel FROM entities WHERE id = ${survivorId}::uuid FOR UPDATE`.execute(trx)).rows[0]
  if (loser === undefined || survivor === undefined) return undefined
  // Every fact linked to the merged entity, whether or not the survivor had it already.
  const moving = (await sql<Row>`SELECT f.id, f.channel FROM fact_entities fe JOIN facts f ON f.id = fe.fact_id WHERE fe.entity_id = ${loserId}::uuid ORDER BY f.created_at, f.id`.execute(trx)).rows
  // The merged entity's name becomes an alias unless it is the survivor's own name.
  await sql`UPDATE entities t SET access_count = t.access_count + s.access_count, salience = GREATEST(t.salience, s.salience),
      description = COALESCE(t.description, s.description), properties = s.properties || t.properties,
      first_seen = LEAST(t.first_seen, s.first_seen), last_accessed = GREATEST(t.last_accessed, s.last_accessed),
      aliases = (SELECT COALESCE(jsonb_agg(DISTINCT a), '[]'::jsonb) FROM jsonb_array_elements_text(t.aliases || s.aliases || jsonb_build_array(s.name)) a
        WHERE lower(a) <> lower(t.name))
    FROM entities s WHERE t.id = ${survivorId}::uuid AND s.id = ${loserId}::uuid`.execute(trx)
  const facts = await sql`INSERT INTO fact_entities (fact_id, entity_id) SELECT fact_id, ${survivorId}::uuid FROM fact_entities WHERE entity_id = ${loserId}::uuid ON CONFLICT DO NOTHING`.execute(trx)
  const out = await sql`INSERT INTO relationships (id, source_id, target_id, type, confidence, channel, created_at)
    SELECT gen_random_uuid(), ${survivorId}::uuid, target_id, type, confidence, channel, created_at FROM relationships
    WHERE source_id = ${loserId}::uuid AND target_id NOT IN (${loserId}::uuid, ${survivorId}::uuid) ON CONFLICT DO NOTHING`.execute(trx)
  const inc = await sql`INSERT INTO relationships (id, source_id, target_id, type, confidence, channel, created_at)
    SELECT gen_random_uuid(), source_id, ${survivorId}::uuid, type, confidence, channel, created_at FROM relationships
    WHERE target_id = ${loserId}::uuid AND source_id NOT IN (${loserId}::uuid, ${survivorId}::uuid) ON CONFLICT DO NOTHING`.execute(trx)
  const { embedding: _e, ...snapshot } = loser
  const relationshipsMoved = Number(out.numAffectedRows ?? 0) + Number(inc.numAffectedRows ?? 0)
  await sql`INSERT INTO entity_merges (id, survivor_id, merged_id, merged_name, merged_type, merged_channel, survivor_channel, reason, score, facts_moved, relationships_moved, merged_entity)
    VALUES (${randomUUID()}::uuid, ${survivorId}::uuid, ${loserId}::uuid, ${loser.name}, ${loser.type}, ${loser.channel}, ${survivor.channel}, ${reason}, ${score},
      ${Number(facts.numAffectedRows ?? 0)}, ${relationshipsMoved}, ${JSON.stringify(snapshot)}::jsonb)`.execute(trx)
  // Its own links and relationships go with it (ON DELETE CASCADE); the survivor has copies.
  await sql`DELETE FROM entities WHERE id = ${loserId}::uuid`.execute(trx)
  const ref = (r: Row): EntityMerged['survivor'] => ({ id: String(r.id), name: String(r.name), type: String(r.type), channel: String(r.channel) })
  return {
    survivor: ref(survivor), merged: ref(loser), reason, score,
    facts: moving.map(f => ({ id: String(f.id), channel: String(f.channel) })), relationships_moved: relationshipsMoved, by: 'entity_linking',
  }
}

/** Told of each merge once it is committed; a failure is the callee's to log (the merge stands). */
export type OnMerged = (m: EntityMerged) => Promise<void>

export async function linkEntities (db: Kysely<unknown>, mode: 'vector' | 'real[]', similarity: number, maxMerges: number, signal: AbortSignal, onMerged?: OnMerged): Promise<Record<string, number>> {
  const pairs = await candidates(db, mode, similarity, maxMerges)
  const merged = new Map<string, string>()
  const resolve = (id: string): string => { let x = id; while (merged.has(x)) x = merged.get(x) as string; return x }
  const counts = { merged: 0, by_name: 0, by_alias: 0, by_embedding: 0, candidates: pairs.length }
  for (const p of pairs) {
    if (counts.merged >= maxMerges || signal.aborted) break
    const a = resolve(p.a)
    const b = resolve(p.b)
    if (a === b) continue
    const done = await db.transaction().execute(async trx => {
      const rows = (await sql<Row>`SELECT id, channel, first_seen FROM entities WHERE id IN (${a}::uuid, ${b}::uuid)`.execute(trx)).rows
      if (rows.length !== 2) return false
      const [x, y] = String(rows[0].id) === a ? [rows[0], rows[1]] : [rows[1], rows[0]]
      // Across channels only into `_global`; within one, the older survives.
      let loser: Row, survivor: Row
      if (x.channel !== y.channel) {
        if (y.channel === GLOBAL) { loser = x; survivor = y } else if (x.channel === GLOBAL) { loser = y; survivor = x } else return false
      } else {
        const when = (r: Row): number => Date.parse(iso(r.first_seen))
        const older = when(x) < when(y) || (when(x) === when(y) && String(x.id) < String(y.id))
        ;[survivor, loser] = older ? [x, y] : [y, x]
      }
      const m = await mergeEntity(trx, String(loser.id), String(survivor.id), p.reason, p.score)
      if (m !== undefined) merged.set(m.merged.id, m.survivor.id)
      return m
    })
    if (done === false || done === undefined) continue
    counts.merged++
    counts[`by_${p.reason}`]++
    await onMerged?.(done)
  }
  return counts
}
