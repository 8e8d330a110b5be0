// The graph schema on SQL, by version. Never edit a released version: add one.
import { sql } from 'kysely'
import { createDotFunction, type Migration } from '@agentd/sdk/kits/sql'
import { consolidationSchema } from './consolidation-sql.ts'

export const graphMigrations: Migration[] = [
  {
    version: 1,
    name: 'entities, facts, fact links, relationships',
    up: async (db, { vectorType }) => {
      const vec = sql.raw(vectorType)
      await sql`CREATE TABLE IF NOT EXISTS entities (
        id uuid PRIMARY KEY, name text NOT NULL, type text NOT NULL, aliases jsonb NOT NULL DEFAULT '[]',
        description text, salience real NOT NULL DEFAULT 0.5, properties jsonb NOT NULL DEFAULT '{}',
        first_seen timestamptz NOT NULL DEFAULT now(), last_accessed timestamptz NOT NULL DEFAULT now(),
        access_count integer NOT NULL DEFAULT 0, channel text NOT NULL,
        embedding ${vec}, embedder text, embedding_dims integer)`.execute(db)
      await sql`CREATE UNIQUE INDEX IF NOT EXISTS entities_identity ON entities (channel, lower(name), type)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS facts (
        id uuid PRIMARY KEY, claim text NOT NULL, claim_hash text NOT NULL, confidence real NOT NULL DEFAULT 0.8,
        source text NOT NULL, source_turn_id text, created_at timestamptz NOT NULL DEFAULT now(), channel text NOT NULL,
        last_accessed timestamptz NOT NULL DEFAULT now(), access_count integer NOT NULL DEFAULT 0,
        salience real NOT NULL DEFAULT 0.5, temporal_context text, superseded_at timestamptz,
        superseded_by_id uuid, supersedes_id uuid, flagged_for_review boolean NOT NULL DEFAULT false,
        embedding ${vec}, embedder text, embedding_dims integer, UNIQUE (channel, claim_hash))`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS facts_channel ON facts (channel, created_at DESC)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS fact_entities (
        fact_id uuid NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
        entity_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE, PRIMARY KEY (fact_id, entity_id))`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS fact_entities_entity ON fact_entities (entity_id)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS relationships (
        id uuid PRIMARY KEY, source_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
        target_id uuid NOT NULL REFERENCES entities(id) ON DELETE CASCADE, type text NOT NULL,
        confidence real NOT NULL DEFAULT 0.8, channel text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (source_id, target_id, type))`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS relationships_target ON relationships (target_id)`.execute(db)
    },
  },
  {
    version: 2,
    name: 'room on each page for access-count updates',
    // Recall bumps access_count/last_accessed of the facts and entities it returns. With
    // free space on the page that update is HOT: no new entry in any index (above all the
    // HNSW one, where an insert costs milliseconds).
    up: async (db) => {
      await sql`ALTER TABLE facts SET (fillfactor = 70)`.execute(db)
      await sql`ALTER TABLE entities SET (fillfactor = 70)`.execute(db)
    },
  },
  {
    version: 3,
    name: 'agentd_dot: the dot product for the real[] fallback (same function as memory-sql\'s)',
    up: async (db) => { await createDotFunction(db) },
  },
  {
    version: 4,
    name: 'consolidation: fact subject, attribute and value (supersession); conversations per entity and fact (salience, promotion)',
    up: async (db) => { await consolidationSchema(db) },
  },
  {
    version: 5,
    name: 'salience decay marker; entity merges (entity_linking), for tracing a merge',
    up: async (db) => {
      await sql`ALTER TABLE entities ADD COLUMN IF NOT EXISTS salience_decayed_at timestamptz`.execute(db)
      await sql`ALTER TABLE facts ADD COLUMN IF NOT EXISTS salience_decayed_at timestamptz`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS entity_merges (
        id uuid PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), survivor_id uuid NOT NULL, merged_id uuid NOT NULL,
        merged_name text NOT NULL, merged_type text NOT NULL, merged_channel text NOT NULL, survivor_channel text NOT NULL,
        reason text NOT NULL, score real, facts_moved integer NOT NULL, relationships_moved integer NOT NULL,
        merged_entity jsonb NOT NULL)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS entity_merges_survivor ON entity_merges (survivor_id)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS entity_merges_merged ON entity_merges (merged_id)`.execute(db)
    },
  },
]
