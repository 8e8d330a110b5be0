// Copies of what the relational store keeps (it stays the record), so the graph holds the
// seed's whole model: (:Conversation)-[:HAS_TURN]->(:Turn), (:Turn)-[:NEXT]->(:Turn) in
// index order, (:Goal)-[:SUBGOAL_OF]->(:Goal), (:Strategy); every node carries its channel.
// The memory service writes them after its relational write (GraphStore.upsertTurn,
// upsertGoal, upsertStrategy, removeCopy); each write replaces the copy by id, so a replay
// from its outbox changes nothing. Parameterised Cypher only.
import neo4j from 'neo4j-driver'
import type { Goal, LearnedStrategy, Turn } from '@agentd/sdk/contracts/memory-stores'
import { iso, num, type Row } from './rows.ts'
import { nearestByVector, scanByVector } from './cypher.ts'

/** Counts and positions are integers in Neo4j (a JS number would be stored as a float). */
const int = (n: number): ReturnType<typeof neo4j.int> => neo4j.int(Math.trunc(n))

/** A turn as a map (`t`), without its vectors. */
export const TURN = 't {.id, .conversation_id, .index, .timestamp, .role, .content, .token_count, .metadata, .channel, .embedder}'

export const CQ = {
  // The conversation takes the channel and time of the first turn copied; NEXT links the
  // turn to its neighbours by index, whichever of them was copied first.
  upsertTurn: `MERGE (c:Conversation {id: $conversation_id})
    ON CREATE SET c.channel = $channel, c.created_at = datetime($timestamp)
    SET c.updated_at = CASE WHEN c.updated_at IS NULL OR c.updated_at < datetime($timestamp) THEN datetime($timestamp) ELSE c.updated_at END
    MERGE (t:Turn {id: $id})
    SET t.conversation_id = $conversation_id, t.index = $index, t.timestamp = datetime($timestamp), t.role = $role, t.content = $content,
      t.token_count = $token_count, t.metadata = $metadata, t.channel = $channel
    SET t += $vector
    MERGE (c)-[:HAS_TURN]->(t)
    WITH c, t
    OPTIONAL MATCH (c)-[:HAS_TURN]->(before:Turn {index: $index - 1})
    FOREACH (b IN CASE WHEN before IS NULL THEN [] ELSE [before] END | MERGE (b)-[:NEXT]->(t))
    WITH c, t
    OPTIONAL MATCH (c)-[:HAS_TURN]->(after:Turn {index: $index + 1})
    FOREACH (a IN CASE WHEN after IS NULL THEN [] ELSE [after] END | MERGE (t)-[:NEXT]->(a))
    RETURN t.id AS id`,
  upsertGoal: `MERGE (g:Goal {id: $id})
    SET g.description = $description, g.status = $status, g.priority = $priority, g.parent_goal_id = $parent_goal_id,
      g.created_at = datetime($created_at), g.deadline = CASE WHEN $deadline IS NULL THEN null ELSE datetime($deadline) END, g.channel = $channel
    SET g += $vector
    WITH g
    OPTIONAL MATCH (g)-[old:SUBGOAL_OF]->(:Goal)
    DELETE old
    WITH DISTINCT g
    OPTIONAL MATCH (parent:Goal {id: $parent_goal_id})
    FOREACH (p IN CASE WHEN parent IS NULL THEN [] ELSE [parent] END | MERGE (g)-[:SUBGOAL_OF]->(p))
    RETURN g.id AS id`,
  /** A goal copied before its parent: linked once the child's id is known to the parent's copy. */
  adoptSubgoals: `MATCH (p:Goal {id: $id}) MATCH (g:Goal {parent_goal_id: $id}) MERGE (g)-[:SUBGOAL_OF]->(p) RETURN count(g) AS n`,
  upsertStrategy: `MERGE (s:Strategy {id: $id})
    SET s.description = $description, s.context_pattern = $context_pattern, s.tool_sequence = $tool_sequence,
      s.success_count = $success_count, s.failure_count = $failure_count,
      s.last_used = CASE WHEN $last_used IS NULL THEN null ELSE datetime($last_used) END, s.channel = $channel
    SET s += $vector
    RETURN s.id AS id`,
  removeGoal: 'MATCH (g:Goal {id: $id}) DETACH DELETE g RETURN count(g) AS n',
  removeStrategy: 'MATCH (s:Strategy {id: $id}) DETACH DELETE s RETURN count(s) AS n',
  removeConversationTurns: 'MATCH (t:Turn {conversation_id: $id}) DETACH DELETE t RETURN count(t) AS n',
  removeConversation: 'MATCH (c:Conversation {id: $id}) DETACH DELETE c RETURN count(c) AS n',
  // Nearest copied turns: the vector index picks candidates, the exact cosine ranks them (as for entities).
  nearestTurns: nearestByVector('t', TURN, 'turn'),
  scanTurns: scanByVector('t', 'Turn', TURN, 'turn'),
  // The best $k matches by Lucene's ranking, then the channels: with every turn matching a
  // common word, reading all of them took 200 ms at 100k turns (bench/neo4j.bench.ts).
  searchTopTurns: `CALL db.index.fulltext.queryNodes($index, $query, {limit: $k}) YIELD node AS t, score
    WHERE t.channel IN $channels
    RETURN ${TURN} AS turn, score ORDER BY score DESC, t.timestamp DESC LIMIT $limit`,
  // Every match: when the channels hold fewer than asked among the top ones (a small channel in a big graph).
  searchTurns: `CALL db.index.fulltext.queryNodes($index, $query) YIELD node AS t, score
    WHERE t.channel IN $channels
    RETURN ${TURN} AS turn, score ORDER BY score DESC, t.timestamp DESC LIMIT $limit`,

  // The back-fill (plugins/memory graph-backfill.ts): which copies exist, and its progress, kept here.
  copiedTurns: 'MATCH (n:Turn) WHERE n.id IN $ids RETURN n.id AS id',
  copiedGoals: 'MATCH (n:Goal) WHERE n.id IN $ids RETURN n.id AS id',
  copiedStrategies: 'MATCH (n:Strategy) WHERE n.id IN $ids RETURN n.id AS id',
  backfillState: "MATCH (b:AgentdBackfill {id: 'copies'}) RETURN b.state AS state",
  saveBackfillState: "MERGE (b:AgentdBackfill {id: 'copies'}) SET b.state = $state, b.saved_at = datetime()",

  // A channel's copies, counted by kind (deleteChannel), and every goal and strategy (deleteAll).
  deleteChannelTurns: 'MATCH (t:Turn {channel: $channel}) DETACH DELETE t RETURN count(t) AS n',
  deleteChannelConversations: 'MATCH (c:Conversation {channel: $channel}) DETACH DELETE c RETURN count(c) AS n',
  deleteChannelGoals: 'MATCH (g:Goal {channel: $channel}) DETACH DELETE g RETURN count(g) AS n',
  deleteChannelStrategies: 'MATCH (s:Strategy {channel: $channel}) DETACH DELETE s RETURN count(s) AS n',
  deleteAllGoalsAndStrategies: 'MATCH (n) WHERE n:Goal OR n:Strategy DETACH DELETE n RETURN count(n) AS n',

  // Re-embedding the copies' vectors, as the entities' and facts' (the text the memory service embeds for each).
  staleTurns: `MATCH (t:Turn) WHERE t.embedder IS NOT NULL AND (t.embedder <> $embedder OR t.embedding_dims <> $dims) AND ($after IS NULL OR t.id > $after)
    RETURN t.id AS id, t.content AS text ORDER BY t.id LIMIT $limit`,
  staleGoals: `MATCH (g:Goal) WHERE g.embedder IS NOT NULL AND (g.embedder <> $embedder OR g.embedding_dims <> $dims) AND ($after IS NULL OR g.id > $after)
    RETURN g.id AS id, g.description AS text ORDER BY g.id LIMIT $limit`,
  staleStrategies: `MATCH (s:Strategy) WHERE s.embedder IS NOT NULL AND (s.embedder <> $embedder OR s.embedding_dims <> $dims) AND ($after IS NULL OR s.id > $after)
    RETURN s.id AS id, s.description + ' ' + s.context_pattern AS text ORDER BY s.id LIMIT $limit`,
  turnDims: 'MATCH (t:Turn {id: $id}) RETURN t.embedding_dims AS dims',
  goalDims: 'MATCH (g:Goal {id: $id}) RETURN g.embedding_dims AS dims',
  strategyDims: 'MATCH (s:Strategy {id: $id}) RETURN s.embedding_dims AS dims',
  setTurnVector: 'MATCH (t:Turn {id: $id}) SET t += $vector RETURN count(t) AS n',
  setGoalVector: 'MATCH (g:Goal {id: $id}) SET g += $vector RETURN count(g) AS n',
  setStrategyVector: 'MATCH (s:Strategy {id: $id}) SET s += $vector RETURN count(s) AS n',
} as const

/** The parameters of a turn's copy (the vector's are added by the store). */
export const turnParams = (t: Turn): Record<string, unknown> => ({
  id: t.id, conversation_id: t.conversation_id, index: int(t.index), timestamp: t.timestamp, role: t.role, content: t.content,
  token_count: t.token_count === null ? null : int(t.token_count), metadata: JSON.stringify(t.metadata ?? {}), channel: t.channel,
})
export const goalParams = (g: Goal): Record<string, unknown> => ({
  id: g.id, description: g.description, status: g.status, priority: int(g.priority), parent_goal_id: g.parent_goal_id,
  created_at: g.created_at, deadline: g.deadline, channel: g.channel,
})
export const strategyParams = (s: LearnedStrategy): Record<string, unknown> => ({
  id: s.id, description: s.description, context_pattern: s.context_pattern, tool_sequence: s.tool_sequence,
  success_count: int(s.success_count), failure_count: int(s.failure_count), last_used: s.last_used, channel: s.channel,
})

function metadata (v: unknown): Record<string, unknown> {
  if (typeof v !== 'string' || v === '') return {}
  try {
    const o: unknown = JSON.parse(v)
    return o !== null && typeof o === 'object' && !Array.isArray(o) ? o as Record<string, unknown> : {}
  } catch { return {} }
}

export const toTurn = (r: Row): Turn => ({
  id: String(r.id), conversation_id: String(r.conversation_id), index: num(r.index), timestamp: iso(r.timestamp), role: String(r.role),
  content: String(r.content), token_count: r.token_count === null || r.token_count === undefined ? null : num(r.token_count),
  metadata: metadata(r.metadata), channel: String(r.channel), embedder: r.embedder === null || r.embedder === undefined ? null : String(r.embedder),
})
