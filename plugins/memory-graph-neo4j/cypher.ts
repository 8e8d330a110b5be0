// Every Cypher statement the store sends, as constants: values travel only as parameters
// ($name), never spliced into the text. The model: (:Entity), (:Fact), (f:Fact)-[:ABOUT]->(e:Entity),
// (new:Fact)-[:SUPERSEDES]->(old:Fact), (a:Entity)-[:RELATES_TO {type, confidence}]->(b:Entity);
// every node and RELATES_TO carries its `channel`.

/** An entity as a map (`e`), without its vectors. */
/**
 * Nearest nodes by vector: the index picks $k candidates in the channels, the exact cosine of
 * the stored vector ranks them (the index's own score is approximate, see nearestEntities).
 */
export const nearestByVector = (v: string, projection: string, as: string): string => `CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node AS ${v}
    WHERE ${v}.channel IN $channels AND ${v}.embedder = $embedder
    WITH ${v}, vector.similarity.cosine(${v}[$property], $vector) AS score
    RETURN ${projection} AS ${as}, score ORDER BY score DESC LIMIT $limit`

/** The same by an exact scan of the channels' nodes of that embedder and dimension. */
export const scanByVector = (v: string, label: string, projection: string, as: string): string => `MATCH (${v}:${label}) WHERE ${v}.channel IN $channels AND ${v}.embedder = $embedder AND ${v}.embedding_dims = $dims
    WITH ${v}, vector.similarity.cosine(${v}[$property], $vector) AS score
    RETURN ${projection} AS ${as}, score ORDER BY score DESC LIMIT $limit`

export const ENTITY = 'e {.id, .name, .type, .aliases, .description, .salience, .properties, .first_seen, .last_accessed, .access_count, .channel, conversation_count: size(coalesce(e.conversation_ids, []))}'
/** A fact as a map (`f`) with its links: entity ids, and both ends of its supersession. */
export const FACT = `f {.id, .claim, .claim_hash, .confidence, .source, .source_turn_id, .created_at, .channel, .last_accessed, .access_count,
  .salience, .temporal_context, .superseded_at, .flagged_for_review, .subject_id, .attribute, .value,
  conversation_count: size(coalesce(f.conversation_ids, [])),
  entity_ids: [(f)-[:ABOUT]->(x:Entity) | x.id],
  superseded_by_id: head([(f)<-[:SUPERSEDES]-(n:Fact) | n.id]),
  supersedes_id: head([(f)-[:SUPERSEDES]->(o:Fact) | o.id])}`

/** The filters of a fact listing: the same for the page and its total. */
const FACT_LIST_FILTER = `    WHERE ($channel IS NULL OR f.channel = $channel) AND ($exclude_channel IS NULL OR f.channel <> $exclude_channel)
      AND ($search IS NULL OR f.claim_key CONTAINS toLower($search))
      AND f.confidence >= $min_confidence AND ($include_superseded OR f.superseded_at IS NULL)
      AND ($flagged IS NULL OR f.flagged_for_review = $flagged) AND f.access_count >= $min_access_count
      AND size(coalesce(f.conversation_ids, [])) >= $min_conversations
`

export const Q = {
  ping: 'RETURN 1 AS ok',
  awaitIndex: 'CALL db.awaitIndex($name, $seconds)',

  // Entities. The MERGE key is the identity constraint; `created` tells a new node by the id just given.
  mergeEntity: `MERGE (e:Entity {channel: $channel, name_key: toLower($name), type: $type})
    ON CREATE SET e.id = $id, e.name = $name, e.aliases = [], e.alias_text = '', e.description = null, e.salience = $salience,
      e.properties = '{}', e.first_seen = datetime(), e.access_count = 0
    SET e.last_accessed = datetime()
    RETURN e.id AS id, e.id = $id AS created, e.aliases AS aliases, e.properties AS properties`,
  updateEntity: `MATCH (e:Entity {id: $id})
    SET e.aliases = $aliases, e.alias_text = $alias_text, e.properties = $properties, e.description = coalesce($description, e.description),
      e.conversation_ids = CASE WHEN $conversation_id IS NULL OR $conversation_id IN coalesce(e.conversation_ids, []) THEN coalesce(e.conversation_ids, [])
        ELSE coalesce(e.conversation_ids, []) + $conversation_id END
    SET e += $vector
    RETURN ${ENTITY} AS entity`,
  entity: `MATCH (e:Entity {id: $id}) RETURN ${ENTITY} AS entity`,
  countEntities: `MATCH (e:Entity)
    WHERE ($channel IS NULL OR e.channel = $channel) AND ($exclude_channel IS NULL OR e.channel <> $exclude_channel) AND e.salience >= $min_salience
      AND ($type IS NULL OR e.type = $type) AND ($search IS NULL OR e.name_key CONTAINS toLower($search))
    RETURN count(e) AS total`,
  listEntities: `MATCH (e:Entity)
    WHERE ($channel IS NULL OR e.channel = $channel) AND ($exclude_channel IS NULL OR e.channel <> $exclude_channel) AND e.salience >= $min_salience
      AND ($type IS NULL OR e.type = $type) AND ($search IS NULL OR e.name_key CONTAINS toLower($search))
    RETURN ${ENTITY} AS entity ORDER BY e.salience DESC, e.name, e.id SKIP $offset LIMIT $limit`,
  // Entity linking: the name or an alias, any case; channels in the order given.
  findEntities: `MATCH (e:Entity) WHERE e.channel IN $channels
      AND (e.name_key = toLower($name) OR any(a IN e.aliases WHERE toLower(a) = toLower($name)))
    WITH e, [i IN range(0, size($channels) - 1) WHERE $channels[i] = e.channel][0] AS pos
    RETURN ${ENTITY} AS entity ORDER BY pos, e.salience DESC, e.id LIMIT $limit`,
  // The write API: edits and deletions. A field not in the patch keeps its value (`$set_x` false).
  entityForUpdate: 'MATCH (e:Entity {id: $id}) RETURN e.name AS name, e.type AS type, e.channel AS channel, e.embedding_dims AS dims',
  entityClash: `MATCH (o:Entity {channel: $channel, name_key: toLower($name), type: $type}) WHERE o.id <> $id
    RETURN o.id AS id LIMIT 1`,
  updateEntityFields: `MATCH (e:Entity {id: $id})
    SET e.name = $name, e.name_key = toLower($name), e.type = $type,
      e.aliases = CASE WHEN $set_aliases THEN $aliases ELSE e.aliases END,
      e.alias_text = CASE WHEN $set_aliases THEN $alias_text ELSE e.alias_text END,
      e.description = CASE WHEN $set_description THEN $description ELSE e.description END,
      e.properties = CASE WHEN $set_properties THEN $properties ELSE e.properties END,
      e.salience = coalesce($salience, e.salience)
    SET e += $vector
    RETURN ${ENTITY} AS entity`,
  // Relationships and ABOUT links go with it; the facts stay.
  deleteEntity: 'MATCH (e:Entity {id: $id}) DETACH DELETE e RETURN count(e) AS n',
  // Approximate nearest neighbours over the whole index, then the caller's channels and embedder.
  // The index's own score is approximate (Neo4j 5.23+ quantizes vectors in it, which
  // moved cosines by up to 0.08 and swapped neighbours on a real server): it picks the
  // candidates, the exact cosine of the stored vector ranks them.
  nearestEntities: nearestByVector('e', ENTITY, 'entity'),
  // Exact scan within the channels, when the index gave fewer than asked (a small channel in a big graph).
  scanEntities: scanByVector('e', 'Entity', ENTITY, 'entity'),
  searchEntities: `CALL db.index.fulltext.queryNodes($index, $query) YIELD node AS e, score
    WHERE e.channel IN $channels
    RETURN ${ENTITY} AS entity, score ORDER BY score DESC LIMIT $limit`,
  touchEntity: 'MATCH (e:Entity {id: $id}) SET e.access_count = e.access_count + 1, e.last_accessed = datetime()',

  // Facts.
  mergeFact: `MERGE (f:Fact {channel: $channel, claim_hash: $claim_hash})
    ON CREATE SET f.id = $id, f.claim = $claim, f.claim_key = toLower($claim), f.confidence = $confidence, f.source = $source,
      f.source_turn_id = $source_turn_id, f.created_at = datetime(), f.last_accessed = datetime(), f.access_count = 0,
      f.salience = $salience, f.temporal_context = $temporal_context, f.flagged_for_review = $flagged_for_review,
      f.subject_id = $subject_id, f.attribute = $attribute, f.value = $value, f.conversation_ids = [], f += $vector
    ON MATCH SET f.confidence = CASE WHEN $confidence > f.confidence THEN $confidence ELSE f.confidence END,
      f.subject_id = coalesce(f.subject_id, $subject_id), f.attribute = coalesce(f.attribute, $attribute), f.value = coalesce(f.value, $value)
    SET f.conversation_ids = CASE WHEN $conversation_id IS NULL OR $conversation_id IN coalesce(f.conversation_ids, []) THEN coalesce(f.conversation_ids, [])
      ELSE coalesce(f.conversation_ids, []) + $conversation_id END
    RETURN f.id AS id, f.id = $id AS created`,
  linkFact: `MATCH (f:Fact {id: $id}) MATCH (e:Entity) WHERE e.id IN $entity_ids
    MERGE (f)-[:ABOUT]->(e)`,
  fact: `MATCH (f:Fact {id: $id}) RETURN ${FACT} AS fact`,
  supersede: `MATCH (old:Fact {id: $old_id}) MATCH (next:Fact {id: $new_id})
    SET old.superseded_at = datetime(), old.temporal_context = 'past'
    MERGE (next)-[:SUPERSEDES]->(old)`,
  findFact: `MATCH (f:Fact) WHERE f.channel IN $channels AND f.claim_hash = $claim_hash
    WITH f, [i IN range(0, size($channels) - 1) WHERE $channels[i] = f.channel][0] AS pos
    RETURN ${FACT} AS fact ORDER BY pos LIMIT 1`,
  // What holds now about a subject's attribute: the supersession candidates.
  currentFacts: `MATCH (f:Fact) WHERE f.subject_id = $subject_id AND f.attribute = $attribute AND f.channel IN $channels
      AND f.superseded_at IS NULL AND NOT f.flagged_for_review AND (f.temporal_context IS NULL OR f.temporal_context = 'current')
    RETURN ${FACT} AS fact ORDER BY f.created_at, f.id`,
  updateFact: `MATCH (f:Fact {id: $id})
    SET f.confidence = coalesce($confidence, f.confidence),
      f.temporal_context = CASE WHEN $set_temporal_context THEN $temporal_context ELSE f.temporal_context END,
      f.salience = coalesce($salience, f.salience),
      f.flagged_for_review = coalesce($flagged_for_review, f.flagged_for_review)
    RETURN ${FACT} AS fact`,
  // Its SUPERSEDES links go with it (the facts it superseded stay superseded).
  deleteFact: 'MATCH (f:Fact {id: $id}) DETACH DELETE f RETURN count(f) AS n',
  countFacts: `MATCH (f:Fact)
${FACT_LIST_FILTER}    RETURN count(f) AS total`,
  listFacts: `MATCH (f:Fact)
${FACT_LIST_FILTER}    RETURN ${FACT} AS fact ORDER BY f.created_at DESC, f.id SKIP $offset LIMIT $limit`,
  nearestFacts: `CALL db.index.vector.queryNodes($index, $k, $vector) YIELD node AS f
    WHERE f.channel IN $channels AND f.embedder = $embedder AND ($include_superseded OR f.superseded_at IS NULL)
    WITH f, vector.similarity.cosine(f[$property], $vector) AS score
    RETURN ${FACT} AS fact, score ORDER BY score DESC LIMIT $limit`,
  scanFacts: `MATCH (f:Fact) WHERE f.channel IN $channels AND f.embedder = $embedder AND f.embedding_dims = $dims
      AND ($include_superseded OR f.superseded_at IS NULL)
    WITH f, vector.similarity.cosine(f[$property], $vector) AS score
    RETURN ${FACT} AS fact, score ORDER BY score DESC LIMIT $limit`,
  searchFacts: `CALL db.index.fulltext.queryNodes($index, $query) YIELD node AS f, score
    WHERE f.channel IN $channels AND f.superseded_at IS NULL
    RETURN ${FACT} AS fact, score ORDER BY score DESC LIMIT $limit`,
  touchFacts: 'MATCH (f:Fact) WHERE f.id IN $ids SET f.access_count = f.access_count + 1, f.last_accessed = datetime()',

  // Relationships and the neighbourhood walk.
  relate: `MATCH (s:Entity {id: $source_id}) MATCH (t:Entity {id: $target_id})
    MERGE (s)-[r:RELATES_TO {type: $type}]->(t)
    ON CREATE SET r.id = $id, r.channel = $channel, r.created_at = datetime()
    SET r.confidence = $confidence
    RETURN r.id AS id, s.id AS source_id, t.id AS target_id, r.type AS type, r.confidence AS confidence, r.channel AS channel`,
  // Paths up to 3 hops (a bound cannot be a parameter; shorter ones are kept by $depth) that
  // never visit an entity twice. Each edge is reported once, at the least depth it was reached;
  // `forward` (the walk went from its source to its target) wins a tie, as in the SQL store.
  // $limit (an Integer, one more than the store returns, to tell a cut walk) caps the answer,
  // the nearest edges kept; the paths are still enumerated before the aggregation.
  walk: `MATCH p = (root:Entity {id: $id})-[:RELATES_TO*1..3]-(:Entity)
    WHERE length(p) <= $depth AND all(n IN nodes(p) WHERE single(m IN nodes(p) WHERE m = n))
    UNWIND range(0, length(p) - 1) AS i
    WITH relationships(p)[i] AS r, (i + 1) * 2 + CASE WHEN startNode(relationships(p)[i]) = nodes(p)[i] THEN 0 ELSE 1 END AS code
    WITH r, min(code) AS code
    WITH r, code / 2 AS depth, code % 2 = 0 AS forward, startNode(r) AS s, endNode(r) AS t
    RETURN r.type AS type, r.confidence AS confidence, depth, forward, s.id AS source_id, s.name AS source_name, s.type AS source_type,
      t.id AS target_id, t.name AS target_name, t.type AS target_type
    ORDER BY depth, type, target_name, r.id LIMIT $limit`,
  entityFacts: `MATCH (f:Fact)-[:ABOUT]->(:Entity {id: $id}) WHERE f.superseded_at IS NULL
    RETURN ${FACT} AS fact ORDER BY f.confidence DESC, f.created_at DESC LIMIT 200`,

  // Channels and housekeeping. Relationships are counted by their own channel, as SQL rows are.
  deleteChannelRelationships: 'MATCH ()-[r:RELATES_TO {channel: $channel}]->() DELETE r RETURN count(r) AS n',
  deleteChannelFacts: 'MATCH (f:Fact {channel: $channel}) DETACH DELETE f RETURN count(f) AS n',
  deleteChannelEntities: 'MATCH (e:Entity {channel: $channel}) DETACH DELETE e RETURN count(e) AS n',
  countByChannel: `MATCH (e:Entity) RETURN e.channel AS channel, 'entities' AS kind, count(e) AS n
    UNION ALL MATCH (f:Fact) RETURN f.channel AS channel, 'facts' AS kind, count(f) AS n`,
  deleteAllLinks: 'MATCH (:Fact)-[r:ABOUT|SUPERSEDES]->() DELETE r RETURN count(r) AS n',
  deleteAllRelationships: 'MATCH (:Entity)-[r:RELATES_TO]->(:Entity) DELETE r RETURN count(r) AS n',
  deleteAllFacts: 'MATCH (f:Fact) DETACH DELETE f RETURN count(f) AS n',
  deleteAllEntities: 'MATCH (e:Entity) DETACH DELETE e RETURN count(e) AS n',
  embedderUsage: `MATCH (n) WHERE (n:Entity OR n:Fact OR n:Turn OR n:Goal OR n:Strategy) AND n.embedder IS NOT NULL
    RETURN n.embedder AS embedder, n.embedding_dims AS dims, count(n) AS n`,
  setEntitySalience: 'MATCH (e:Entity {id: $id}) SET e.salience = $salience RETURN count(e) AS n',
  setFactSalience: 'MATCH (f:Fact {id: $id}) SET f.salience = $salience RETURN count(f) AS n',

  // Re-embedding: vectors another embedder (or size) made, resumable by id.
  staleEntities: `MATCH (e:Entity) WHERE e.embedder IS NOT NULL AND (e.embedder <> $embedder OR e.embedding_dims <> $dims) AND ($after IS NULL OR e.id > $after)
    RETURN e.id AS id, trim(e.name + ' ' + coalesce(e.description, '')) AS text ORDER BY e.id LIMIT $limit`,
  staleFacts: `MATCH (f:Fact) WHERE f.embedder IS NOT NULL AND (f.embedder <> $embedder OR f.embedding_dims <> $dims) AND ($after IS NULL OR f.id > $after)
    RETURN f.id AS id, f.claim AS text ORDER BY f.id LIMIT $limit`,
  entityDims: 'MATCH (e:Entity {id: $id}) RETURN e.embedding_dims AS dims',
  factDims: 'MATCH (f:Fact {id: $id}) RETURN f.embedding_dims AS dims',
  setEntityVector: 'MATCH (e:Entity {id: $id}) SET e += $vector RETURN count(e) AS n',
  setFactVector: 'MATCH (f:Fact {id: $id}) SET f += $vector RETURN count(f) AS n',
} as const
