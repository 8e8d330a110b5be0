// The hyde technique's own recall settings (its fusion weights are the recall kit's FusionSettings, shared).
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const HydeSettings = Type.Object({
  recall_enable_hyde: RecallSetting.enable(false, 'a model writes a hypothetical answer, which is embedded and searched'),
  recall_hyde_model: RecallSetting.model('writes the hypothetical answer'),
  recall_hyde_provider: RecallSetting.provider('recall_hyde_model'),
  recall_hyde_temperature: RecallSetting.temperature(0, 'the hypothetical answer'),
  recall_hyde_max_tokens: Type.Integer({ minimum: 16, maximum: 4000, default: 120, description: 'longest hypothetical answer, in tokens' }),
}, { additionalProperties: false })
