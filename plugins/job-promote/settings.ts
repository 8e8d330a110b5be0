// The promote job's part of /api/memory/settings (SPEC.md's thresholds: confidence >= 0.85,
// recalled >= 5 times, stated in >= 2 conversations; entities by salience >= 0.85) and its interval.
import { Type, type Static } from '@agentd/sdk/typebox'
import { JobSetting } from '@agentd/sdk/kits/memory'

export const PromoteSettings = Type.Object({
  promotion_min_confidence: JobSetting.fraction(0.85, 'facts: minimum confidence to be promoted to _global'),
  job_promote_interval: JobSetting.interval(60, 'promote'),
  promotion_min_access_count: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 5, description: 'facts: minimum times recalled to be promoted' }),
  promotion_min_conversations: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 2, description: 'facts: minimum distinct conversations that stated the fact' }),
  promotion_min_entity_salience: JobSetting.fraction(0.85, 'entities: minimum salience to be promoted'),
}, { additionalProperties: false })

export type PromoteSettingsValues = Static<typeof PromoteSettings>
