// The self_query technique's own recall settings (its fusion weights are the recall kit's FusionSettings, shared).
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const SelfQuerySettings = Type.Object({
  recall_enable_self_query: RecallSetting.enable(false, 'a model turns the query into filters (time range, channel, entity, kind)'),
  recall_self_query_model: RecallSetting.model('turns the query into filters'),
  recall_self_query_provider: RecallSetting.provider('recall_self_query_model'),
  recall_self_query_temperature: RecallSetting.temperature(0, 'the filters'),
  recall_self_query_max_tokens: Type.Integer({ minimum: 16, maximum: 4000, default: 200, description: 'longest filter answer, in tokens' }),
}, { additionalProperties: false })
