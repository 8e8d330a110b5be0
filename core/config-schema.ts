// Schemas of the configuration layers the kernel reads: plugins.json, and the runtime
// config file (data/config.json) built from the sections plugins declare.
import { Type, type Static, type TSchema } from '@agentd/sdk/typebox'

/**
 * data/config.json: each top-level section belongs to the plugin module that declares it
 * (`export const config = { section: schema }`); the kernel validates the whole file
 * against the sections of the enabled modules, and refuses a key no module declares.
 */
export type RuntimeConfig = Record<string, unknown>
export type ConfigSections = Record<string, TSchema>

/** One schema from the modules' sections; two modules may share a section only with the very same schema. */
export function runtimeConfigSchema (sections: ConfigSections): TSchema {
  return Type.Object(Object.fromEntries(Object.entries(sections).map(([k, v]) => [k, Type.Optional(v)])), { additionalProperties: false })
}

export const PluginEntrySchema = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_.@/-]+$', description: 'instance name, unique in the file' }),
  module: Type.String({ minLength: 1, description: 'relative path (to plugins.json) or npm package name' }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  options: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  dependencies: Type.Optional(Type.Array(Type.String())),
}, { additionalProperties: false })

export const PluginsFileSchema = Type.Object({
  plugins: Type.Array(PluginEntrySchema),
}, { additionalProperties: false })

export type PluginEntry = Static<typeof PluginEntrySchema>
export type PluginsFile = Static<typeof PluginsFileSchema>
