// The query_expansion technique's own recall settings.
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const ExpansionSettings = Type.Object({
  recall_enable_query_expansion: RecallSetting.enable(true, 'rule-based variants of the query (statement form, synonyms, word forms)'),
  recall_expansion_max_variants: Type.Integer({ minimum: 0, maximum: 10, default: 3 }),
}, { additionalProperties: false })
