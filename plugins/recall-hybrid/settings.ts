// The hybrid technique's own recall setting (its fusion weights are the recall kit's FusionSettings, shared).
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const HybridSettings = Type.Object({
  recall_enable_hybrid: RecallSetting.enable(true, 'full-text search (IDF-weighted, ts_rank_cd), fused with the vector search by recall_hybrid_bm25_weight / recall_hybrid_vector_weight'),
}, { additionalProperties: false })
