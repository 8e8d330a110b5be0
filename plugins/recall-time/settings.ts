// The time technique's own recall setting.
import { Type } from '@agentd/sdk/typebox'
import { RecallSetting } from '@agentd/sdk/kits/recall'

export const TimeSettings = Type.Object({
  recall_enable_time: RecallSetting.enable(true, 'a query naming a day or a month ("in May 2023") favours the turns said then or telling of then'),
}, { additionalProperties: false })
