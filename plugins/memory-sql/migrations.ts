// The relational memory schema, by version. Never edit a released version: add one.
import { sql } from 'kysely'
import { createDotFunction, type Migration } from '@agentd/sdk/kits/sql'
import { strategyRunsSchema } from './strategy-runs.ts'

export const relationalMigrations: Migration[] = [
  {
    version: 1,
    name: 'channels, conversations, turns, goals, strategies, tool invocations, audit log',
    up: async (db, { vectorType }) => {
      const vec = sql.raw(vectorType)
      await sql`CREATE TABLE IF NOT EXISTS memory_channels (
        name text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())`.execute(db)
      await sql`INSERT INTO memory_channels (name) VALUES ('_global'), ('_default') ON CONFLICT DO NOTHING`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS conversations (
        id text PRIMARY KEY, channel text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(), turn_count integer NOT NULL DEFAULT 0,
        consolidated_at timestamptz)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS conversations_channel ON conversations (channel)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS turns (
        id uuid PRIMARY KEY, conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        idx integer NOT NULL, ts timestamptz NOT NULL DEFAULT now(), role text NOT NULL, content text NOT NULL,
        token_count integer, metadata jsonb NOT NULL DEFAULT '{}', channel text NOT NULL,
        embedding ${vec}, embedder text, embedding_dims integer, UNIQUE (conversation_id, idx))`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS turns_channel_ts ON turns (channel, ts DESC)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS goals (
        id uuid PRIMARY KEY, description text NOT NULL, status text NOT NULL DEFAULT 'active',
        priority integer NOT NULL DEFAULT 3, parent_goal_id uuid, created_at timestamptz NOT NULL DEFAULT now(),
        deadline timestamptz, channel text NOT NULL, embedding ${vec}, embedder text, embedding_dims integer)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS goals_channel ON goals (channel, status)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS strategies (
        id uuid PRIMARY KEY, description text NOT NULL, context_pattern text NOT NULL,
        tool_sequence jsonb NOT NULL DEFAULT '[]', success_count integer NOT NULL DEFAULT 0,
        failure_count integer NOT NULL DEFAULT 0, last_used timestamptz, channel text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(), embedding ${vec}, embedder text, embedding_dims integer)`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS strategies_channel ON strategies (channel)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS tool_invocations (
        id uuid PRIMARY KEY, conversation_id text, tool text NOT NULL, arguments jsonb NOT NULL DEFAULT '{}',
        result text NOT NULL DEFAULT '', is_error boolean NOT NULL DEFAULT false, duration_ms real,
        channel text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS tool_invocations_conv ON tool_invocations (conversation_id, created_at)`.execute(db)
      await sql`CREATE TABLE IF NOT EXISTS memory_audit_log (
        id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), action text NOT NULL,
        target text, channel text, details jsonb NOT NULL DEFAULT '{}')`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS memory_audit_log_at ON memory_audit_log (at)`.execute(db)
    },
  },
  {
    version: 2,
    name: 'agentd_dot: the dot product for the real[] fallback',
    up: async (db) => { await createDotFunction(db) },
  },
  {
    version: 3,
    // created_at cannot order a conversation's tool calls: two inserts in the same
    // millisecond tie (PGlite's clock is millisecond-grained), and the uuid tie-break is random.
    name: 'tool_invocations.seq: insertion order',
    up: async (db) => {
      await sql`ALTER TABLE tool_invocations ADD COLUMN IF NOT EXISTS seq bigserial`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS tool_invocations_conv_seq ON tool_invocations (conversation_id, seq)`.execute(db)
    },
  },
  {
    version: 4,
    // Keyword search over turns (RelationalStore.searchTurns) for hybrid recall techniques.
    name: 'turns: full-text index (simple configuration)',
    up: async (db) => {
      await sql`CREATE INDEX IF NOT EXISTS turns_content_fts ON turns USING gin (to_tsvector('simple', content))`.execute(db)
    },
  },
  {
    version: 5,
    // Keyword search ranks candidates by BM25-style scores (keyword-search.ts): a stored
    // tsvector spares parsing every candidate's text again on each search.
    name: 'turns.content_tsv: stored tsvector (simple configuration) with a GIN index',
    up: async (db) => {
      await sql`ALTER TABLE turns ADD COLUMN IF NOT EXISTS content_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS turns_content_tsv ON turns USING gin (content_tsv)`.execute(db)
      await sql`DROP INDEX IF EXISTS turns_content_fts`.execute(db)
    },
  },
  {
    version: 6,
    name: 'strategy_conversations: each conversation counted once per strategy (patterns job)',
    up: async (db) => { await strategyRunsSchema(db) },
  },
  {
    version: 7,
    // A GIN index's pending list (fastupdate, the default) takes inserts cheaply and is
    // read in full by every search until VACUUM merges it, which PGlite never runs: after
    // 2,600 chat turns it held 50 pages, and six word lookups took 6.0 ms, 0.59 ms once
    // merged. A chat stores a turn at a time, so entering each turn into the index at once
    // costs little; the pending entries there now are merged here.
    name: 'turns_content_tsv: no pending list (fastupdate off)',
    up: async (db) => {
      await sql`ALTER INDEX turns_content_tsv SET (fastupdate = off)`.execute(db)
      await sql`SELECT gin_clean_pending_list('turns_content_tsv'::regclass)`.execute(db)
    },
  },
  {
    version: 8,
    // A turn's keywords take in the words of the turns it answers (NewTurn.context), as its
    // vector does: "Two nights in a tiny hotel." is what "how long were you stuck?" asked
    // about. Weight D marks them so BM25 (bm25.ts) counts them below the turn's own (A).
    name: 'turns.context: the answered turns\' words, weight D in content_tsv',
    up: async (db) => {
      await sql`ALTER TABLE turns ADD COLUMN IF NOT EXISTS context text`.execute(db)
      await sql`DROP INDEX IF EXISTS turns_content_tsv`.execute(db)
      await sql`ALTER TABLE turns DROP COLUMN IF EXISTS content_tsv`.execute(db)
      await sql`ALTER TABLE turns ADD COLUMN content_tsv tsvector GENERATED ALWAYS AS
        (setweight(to_tsvector('simple', content), 'A') || setweight(to_tsvector('simple', coalesce(context, '')), 'D')) STORED`.execute(db)
      await sql`CREATE INDEX IF NOT EXISTS turns_content_tsv ON turns USING gin (content_tsv) WITH (fastupdate = off)`.execute(db)
    },
  },
]
