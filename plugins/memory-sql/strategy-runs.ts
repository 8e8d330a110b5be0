// RelationalStore.recordStrategyRun on SQL: one tool-using run counted towards the strategy
// with its tool sequence in its channel, each conversation at most once per strategy
// (strategy_conversations), inside one transaction.
import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { StrategyRun } from '@agentd/sdk/contracts/memory-stores'
import { jsonb, type Row } from '@agentd/sdk/kits/sql'

export interface RecordedRun { row?: Row, created: boolean, counted: boolean }

export async function recordStrategyRun (trx: Kysely<unknown>, cols: ReturnType<typeof sql.raw>, r: StrategyRun, vector: unknown): Promise<RecordedRun> {
  const seq = jsonb(r.tool_sequence)
  const found = (await sql<Row>`SELECT id FROM strategies WHERE channel = ${r.channel} AND md5(tool_sequence::text) = md5(${seq}::jsonb::text) AND tool_sequence = ${seq}::jsonb
    ORDER BY created_at, id LIMIT 1 FOR UPDATE`.execute(trx)).rows[0]
  const read = async (id: string): Promise<Row> => (await sql<Row>`SELECT ${cols} FROM strategies s WHERE s.id = ${id}::uuid`.execute(trx)).rows[0]
  if (found === undefined) {
    // A failed run teaches nothing new: only a run that worked makes a strategy.
    if (!r.success) return { created: false, counted: false }
    const id = randomUUID()
    await sql`INSERT INTO strategies (id, description, context_pattern, tool_sequence, success_count, failure_count, last_used, channel, embedding, embedder, embedding_dims)
      VALUES (${id}, ${r.description}, ${r.context_pattern}, ${seq}::jsonb, 1, 0, now(), ${r.channel}, ${vector}, ${r.embedding?.embedder ?? null}, ${r.embedding?.vector.length ?? null})`.execute(trx)
    await sql`INSERT INTO strategy_conversations (strategy_id, conversation_id, success) VALUES (${id}::uuid, ${r.conversation_id}, true)`.execute(trx)
    return { row: await read(id), created: true, counted: true }
  }
  const id = String(found.id)
  const ins = await sql`INSERT INTO strategy_conversations (strategy_id, conversation_id, success) VALUES (${id}::uuid, ${r.conversation_id}, ${r.success})
    ON CONFLICT DO NOTHING`.execute(trx)
  if (Number(ins.numAffectedRows ?? 0) === 0) return { row: await read(id), created: false, counted: false }
  await sql`UPDATE strategies SET success_count = success_count + ${r.success ? 1 : 0}, failure_count = failure_count + ${r.success ? 0 : 1},
    last_used = now() WHERE id = ${id}::uuid`.execute(trx)
  return { row: await read(id), created: false, counted: true }
}

/** Version 5 of the relational schema. */
export async function strategyRunsSchema (db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS strategy_conversations (
    strategy_id uuid NOT NULL REFERENCES strategies(id) ON DELETE CASCADE, conversation_id text NOT NULL,
    success boolean NOT NULL, PRIMARY KEY (strategy_id, conversation_id))`.execute(db)
  await sql`CREATE INDEX IF NOT EXISTS strategies_channel_sequence ON strategies (channel, md5(tool_sequence::text))`.execute(db)
}
