// The entity_centric technique's own recall settings.
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const EntitySettings = Type.Object({
  recall_enable_entity_centric: RecallSetting.enable(true, 'entities named in the query, their current facts and the turns that mention them'),
  recall_entity_similarity_threshold: RecallSetting.weight(0.65, 'least cosine similarity for an entity to match the query by embedding'),
  recall_entity_max_entities: Type.Integer({ minimum: 1, maximum: 50, default: 5 }),
  recall_entity_graph_depth: Type.Integer({ minimum: 0, maximum: 3, default: 0, description: 'relationship hops from a matched entity whose entities\' facts are recalled too, scored lower per hop (0: only the matched entities\' own facts)' }),
}, { additionalProperties: false })
