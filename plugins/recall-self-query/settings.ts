// The self_query technique's own recall settings (its fusion weights are the recall kit's FusionSettings, shared).
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const SelfQuerySettings = Type.Object({
  recall_enable_self_query: RecallSetting.enable(false, 'a model turns the query into filters (time range, channel, entity, kind)'),
  ...RecallSetting.modelCall('recall_self_query', 'turns the query into filters', 'filter answer', 200),
}, { additionalProperties: false })
