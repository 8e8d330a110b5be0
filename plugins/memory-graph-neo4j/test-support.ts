// A fake neo4j-driver for unit tests without a server: it records every statement with
// its parameters and access mode, and answers with the driver's own Record, Integer and
// DateTime values from a responder the test gives, so the store's mapping of real driver
// values is what is tested.
import neo4j, { Record as Neo4jRecord } from 'neo4j-driver'
import type { CypherDriver, CypherTx, Params } from './driver.ts'

export interface Call { query: string, params: Params, mode: 'READ' | 'WRITE', database: string | undefined }
export type Responder = (query: string, params: Params) => Neo4jRecord[] | Error | undefined

export class FakeDriver implements CypherDriver {
  readonly calls: Call[] = []
  sessionsOpen = 0
  closed = false
  respond: Responder

  constructor (respond: Responder = () => []) { this.respond = respond }

  session (config: { database?: string, defaultAccessMode?: 'READ' | 'WRITE' }): ReturnType<CypherDriver['session']> {
    this.sessionsOpen++
    const mode = config.defaultAccessMode ?? 'WRITE'
    const tx: CypherTx = {
      run: async (query, params) => {
        this.calls.push({ query, params, mode, database: config.database })
        const out = this.respond(query, params)
        if (out instanceof Error) throw out
        return { records: out ?? [] }
      },
    }
    return {
      executeRead: async work => await work(tx),
      executeWrite: async work => await work(tx),
      close: async () => { this.sessionsOpen-- },
    }
  }

  async close (): Promise<void> { this.closed = true }

  /** The calls that ran this statement. */
  sent (query: string): Call[] { return this.calls.filter(c => c.query === query) }
}

/** One record with these keys and values. */
export const rec = (o: Record<string, unknown>): Neo4jRecord => new Neo4jRecord(Object.keys(o), Object.values(o))

/** A DateTime as Neo4j's datetime() returns it: UTC, nanoseconds. */
export const dt = (isoText: string, extraNanos = 0): InstanceType<typeof neo4j.types.DateTime> => {
  const d = new Date(isoText)
  return new neo4j.types.DateTime(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds() * 1_000_000 + extraNanos, 0)
}

/** A stored entity node as the ENTITY projection returns it. */
export const entityMap = (o: { id: string, name: string, channel: string, type?: string, aliases?: string[], properties?: string, access_count?: number, salience?: number, conversation_count?: number }): Record<string, unknown> => ({
  id: o.id, name: o.name, type: o.type ?? 'Person', aliases: o.aliases ?? [], description: null, salience: o.salience ?? 0.5,
  properties: o.properties ?? '{}', first_seen: dt('2026-01-02T03:04:05.678Z', 901), last_accessed: dt('2026-01-03T00:00:00.000Z'),
  access_count: neo4j.int(o.access_count ?? 0), channel: o.channel, conversation_count: neo4j.int(o.conversation_count ?? 0),
})

/** A stored fact as the FACT projection returns it. */
export const factMap = (o: { id: string, claim: string, channel: string, entity_ids?: string[], superseded_by_id?: string | null, supersedes_id?: string | null, superseded_at?: unknown, confidence?: number, subject_id?: string, conversation_count?: number }): Record<string, unknown> => ({
  id: o.id, claim: o.claim, claim_hash: `h-${o.claim}`, confidence: o.confidence ?? 0.8, source: 'user_stated', source_turn_id: null,
  created_at: dt('2026-02-01T10:00:00.000Z'), channel: o.channel, last_accessed: dt('2026-02-01T10:00:00.000Z'), access_count: neo4j.int(2),
  salience: 0.5, temporal_context: null, superseded_at: o.superseded_at ?? null, flagged_for_review: false,
  entity_ids: o.entity_ids ?? [], superseded_by_id: o.superseded_by_id ?? null, supersedes_id: o.supersedes_id ?? null,
  subject_id: o.subject_id ?? null, attribute: o.subject_id === undefined ? null : 'lives_in', value: o.subject_id === undefined ? null : 'Rome',
  conversation_count: neo4j.int(o.conversation_count ?? 0),
})
