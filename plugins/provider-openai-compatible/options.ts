import { Type, type Static } from '@agentd/sdk/typebox'

// Every field is optional: the instance name picks a preset (`openai`, `openrouter`,
// `local`), and anything else is a custom OpenAI-compatible server that needs only
// `base_url` and, when it wants a key, `api_key_env`.
export const options = Type.Object({
  preset: Type.Optional(Type.Union([Type.Literal('openai'), Type.Literal('openrouter'), Type.Literal('local'), Type.Literal('custom')], {
    description: 'Defaults to the instance name when that names a preset, else custom.',
  })),
  base_url: Type.Optional(Type.String({ format: 'uri', description: 'Default address; providers.<name>.base_url and the URL variable win over it.' })),
  api_key_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Environment variable holding the key.' })),
  base_url_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
  timeout_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
  key_required: Type.Optional(Type.Boolean({ description: 'Default: true when a key variable is known.' })),
  timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 3600, description: 'Default timeout in seconds.' })),
  max_retries: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Extra request headers (OpenRouter attribution, proxies).' })),
  list_models: Type.Optional(Type.Union([Type.Literal('server'), Type.Literal('catalogue')], {
    description: 'Where /api/providers gets the model list: the server\'s GET /models, or the shipped catalogue.',
  })),
  catalogue: Type.Optional(Type.String({ description: 'Path of a catalogue JSON file (absolute, or relative to this plugin folder).' })),
  stream_usage: Type.Boolean({ default: true, description: 'Ask for usage on streams (stream_options.include_usage).' }),
}, { additionalProperties: false })

export type OpenAICompatibleOptions = Static<typeof options>
