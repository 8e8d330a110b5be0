// The hyde technique's own recall settings (its fusion weights are the recall kit's FusionSettings, shared).
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const HydeSettings = Type.Object({
  recall_enable_hyde: RecallSetting.enable(false, 'a model writes a hypothetical answer, which is embedded and searched'),
  ...RecallSetting.modelCall('recall_hyde', 'writes the hypothetical answer', 'hypothetical answer', 120),
}, { additionalProperties: false })
