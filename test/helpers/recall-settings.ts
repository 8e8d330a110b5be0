// The recall settings of the shipped techniques together (what /api/memory/recall-settings
// serves with the shipped plugins.json), for tests and benches that call techniques or the
// fusion directly. Each technique declares its own (plugins/recall-*/settings.ts).
import { defaultsOf, recallSettingsSchema } from '@agentd/sdk/kits/recall'
import type { RecallSettings } from '@agentd/sdk/contracts/recall'
import { HybridSettings } from '../../plugins/recall-hybrid/settings.ts'
import { EntitySettings } from '../../plugins/recall-entity/settings.ts'
import { ExpansionSettings } from '../../plugins/recall-expansion/settings.ts'
import { HydeSettings } from '../../plugins/recall-hyde/settings.ts'
import { SelfQuerySettings } from '../../plugins/recall-self-query/settings.ts'
import { TimeSettings } from '../../plugins/recall-time/settings.ts'

export const SHIPPED_RECALL_SCHEMA = recallSettingsSchema([HybridSettings, EntitySettings, ExpansionSettings, HydeSettings, SelfQuerySettings, TimeSettings].map(settings => ({ settings })))

/** Every shipped key with its default (DECISIONS.md's list). */
export const RECALL_DEFAULTS: RecallSettings = Object.freeze(defaultsOf(SHIPPED_RECALL_SCHEMA))

export const RECALL_SETTING_KEYS = Object.keys(SHIPPED_RECALL_SCHEMA.properties)
