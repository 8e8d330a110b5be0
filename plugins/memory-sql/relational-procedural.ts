// The SQL relational store's procedural roles: goals, learned strategies, tool calls (GoalStore, StrategyStore, ToolLogStore).
import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import type { GoalPatch, Goal, NewGoal, NewLearnedStrategy, NewToolInvocation, PageResult, LearnedStrategy, StrategyRun, ToolInvocation, VectorQuery } from '@agentd/sdk/contracts/memory-stores'
import { jsonb, likeContains, nearestRows, num, vectorValue, type Row } from '@agentd/sdk/kits/sql'
import { recordStrategyRun } from './strategy-runs.ts'
import { SqlTurnRoles } from './relational-turns.ts'
import { STRATEGY_COLS, UUID, toGoal, toStrategy, toTool } from './relational-rows.ts'

export class SqlProceduralRoles extends SqlTurnRoles {
  async addGoal (g: NewGoal): Promise<Goal> {
    return await this.run(async db => {
      const e = g.embedding
      const r = await sql<Row>`INSERT INTO goals (id, description, status, priority, parent_goal_id, deadline, channel, embedding, embedder, embedding_dims, created_at)
        VALUES (${randomUUID()}, ${g.description}, ${g.status ?? 'active'}, ${g.priority ?? 3}, ${g.parent_goal_id ?? null}, ${g.deadline ?? null},
          ${g.channel}, ${vectorValue(this.r.mode, e?.vector)}, ${e?.embedder ?? null}, ${e?.vector.length ?? null}, COALESCE(${g.created_at ?? null}::timestamptz, now())) RETURNING *`.execute(db)
      return toGoal(r.rows[0])
    })
  }

  async goals (q: { channels?: string[], status?: Goal['status'], limit: number }): Promise<Goal[]> {
    return await this.run(async db => {
      const r = await sql<Row>`SELECT * FROM goals WHERE (${q.channels ?? null}::text[] IS NULL OR channel = ANY(${q.channels ?? null}::text[]))
        AND (${q.status ?? null}::text IS NULL OR status = ${q.status ?? null}) ORDER BY priority DESC, created_at DESC LIMIT ${q.limit}`.execute(db)
      return r.rows.map(toGoal)
    })
  }

  async goal (id: string): Promise<Goal | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => {
      const r = await sql<Row>`SELECT * FROM goals WHERE id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toGoal(r.rows[0])
    })
  }

  async updateGoal (id: string, p: GoalPatch): Promise<Goal | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => {
      const e = p.embedding
      const r = await sql<Row>`UPDATE goals SET
          description = COALESCE(${p.description ?? null}, description),
          status = COALESCE(${p.status ?? null}, status),
          priority = COALESCE(${p.priority ?? null}::int, priority),
          deadline = CASE WHEN ${p.deadline !== undefined} THEN ${p.deadline ?? null}::timestamptz ELSE deadline END,
          embedding = CASE WHEN ${e !== undefined} THEN ${vectorValue(this.r.mode, e?.vector)} ELSE embedding END,
          embedder = CASE WHEN ${e !== undefined} THEN ${e?.embedder ?? null} ELSE embedder END,
          embedding_dims = CASE WHEN ${e !== undefined} THEN ${e?.vector.length ?? null}::int ELSE embedding_dims END
        WHERE id = ${id}::uuid RETURNING *`.execute(db)
      return r.rows[0] === undefined ? undefined : toGoal(r.rows[0])
    })
  }

  async deleteGoal (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    return await this.run(async db => Number((await sql`DELETE FROM goals WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async strategy (id: string): Promise<LearnedStrategy | undefined> {
    if (!UUID.test(id)) return undefined
    return await this.run(async db => {
      const r = await sql<Row>`SELECT ${STRATEGY_COLS} FROM strategies s WHERE s.id = ${id}::uuid`.execute(db)
      return r.rows[0] === undefined ? undefined : toStrategy(r.rows[0])
    })
  }

  async deleteStrategy (id: string): Promise<boolean> {
    if (!UUID.test(id)) return false
    return await this.run(async db => Number((await sql`DELETE FROM strategies WHERE id = ${id}::uuid`.execute(db)).numAffectedRows ?? 0) > 0)
  }

  async addStrategy (s: NewLearnedStrategy): Promise<LearnedStrategy> {
    return await this.run(async db => {
      const e = s.embedding
      if (e !== undefined) await this.r.index('strategies', e.vector.length)
      const r = await sql<Row>`INSERT INTO strategies AS s (id, description, context_pattern, tool_sequence, channel, embedding, embedder, embedding_dims, success_count, failure_count, last_used)
        VALUES (${randomUUID()}, ${s.description}, ${s.context_pattern}, ${jsonb(s.tool_sequence ?? [])}::jsonb, ${s.channel},
          ${vectorValue(this.r.mode, e?.vector)}, ${e?.embedder ?? null}, ${e?.vector.length ?? null},
          ${s.success_count ?? 0}, ${s.failure_count ?? 0}, ${s.last_used ?? null}::timestamptz) RETURNING ${STRATEGY_COLS}`.execute(db)
      return toStrategy(r.rows[0])
    })
  }

  async recordStrategyRun (run: StrategyRun): Promise<{ strategy?: LearnedStrategy, created: boolean, counted: boolean }> {
    return await this.run(async db => {
      const e = run.embedding
      // Outside the transaction: PGlite has one connection, which the transaction holds.
      if (e !== undefined) await this.r.index('strategies', e.vector.length)
      const res = await db.transaction().execute(async trx => await recordStrategyRun(trx, STRATEGY_COLS, run, vectorValue(this.r.mode, e?.vector)))
      return { ...(res.row === undefined ? {} : { strategy: toStrategy(res.row) }), created: res.created, counted: res.counted }
    })
  }

  async strategies (q: { channel?: string, search?: string, offset: number, limit: number }): Promise<PageResult<LearnedStrategy>> {
    return await this.run(async db => {
      const where = sql`(${q.channel ?? null}::text IS NULL OR s.channel = ${q.channel ?? null})
        AND (${q.search ?? null}::text IS NULL OR s.description ILIKE ${q.search === undefined ? null : likeContains(q.search)} ESCAPE '\\'
          OR s.context_pattern ILIKE ${q.search === undefined ? null : likeContains(q.search)} ESCAPE '\\')`
      const total = await sql<{ n: number }>`SELECT count(*)::int AS n FROM strategies s WHERE ${where}`.execute(db)
      const r = await sql<Row>`SELECT ${STRATEGY_COLS} FROM strategies s WHERE ${where} ORDER BY s.created_at DESC, s.id LIMIT ${q.limit} OFFSET ${q.offset}`.execute(db)
      return { items: r.rows.map(toStrategy), total: num(total.rows[0].n) }
    })
  }

  async similarStrategies (q: VectorQuery): Promise<Array<LearnedStrategy & { score: number }>> {
    return await this.run(async db => {
      await this.r.index('strategies', q.embedding.vector.length)
      const rows = await nearestRows(db, this.r.mode, { table: 'strategies', alias: 's', cols: STRATEGY_COLS }, q)
      return rows.map(row => ({ ...toStrategy(row), score: num(row.score) }))
    })
  }

  async addToolInvocation (t: NewToolInvocation): Promise<ToolInvocation> {
    return await this.run(async db => {
      const id = t.id ?? randomUUID()
      const r = await sql<Row>`INSERT INTO tool_invocations (id, conversation_id, tool, arguments, result, is_error, duration_ms, channel, created_at)
        VALUES (${id}, ${t.conversation_id}, ${t.tool}, ${jsonb(t.arguments)}::jsonb, ${t.result}, ${t.is_error}, ${t.duration_ms}, ${t.channel}, COALESCE(${t.created_at ?? null}::timestamptz, now()))
        ON CONFLICT (id) DO NOTHING RETURNING *`.execute(db)
      // Nothing returned: a retried write whose first attempt was stored.
      if (r.rows.length > 0) return toTool(r.rows[0])
      return toTool((await sql<Row>`SELECT * FROM tool_invocations WHERE id = ${id}::uuid`.execute(db)).rows[0])
    })
  }

  async toolInvocations (q: { conversation_id?: string, channel?: string, since?: string, limit: number }): Promise<ToolInvocation[]> {
    return await this.run(async db => {
      // `since` is inclusive: calls recorded in the same millisecond as the last one seen are read again, never skipped.
      const r = await sql<Row>`SELECT * FROM tool_invocations WHERE (${q.conversation_id ?? null}::text IS NULL OR conversation_id = ${q.conversation_id ?? null})
        AND (${q.channel ?? null}::text IS NULL OR channel = ${q.channel ?? null})
        AND (${q.since ?? null}::timestamptz IS NULL OR created_at >= ${q.since ?? null}::timestamptz) ORDER BY seq LIMIT ${q.limit}`.execute(db)
      return r.rows.map(toTool)
    })
  }

}
