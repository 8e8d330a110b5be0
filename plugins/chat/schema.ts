// Request and response schemas of the chat endpoints (they become the OpenAPI at /docs).
import { Type, type Static } from '@agentd/sdk/typebox'
import { CHANNEL_MAX_LENGTH, CHANNEL_PATTERN } from '@agentd/sdk/kits/memory'

const ToolNames = Type.Array(Type.String({ minLength: 1 }), { maxItems: 500 })

export const ChatRequestSchema = Type.Object({
  message: Type.String({ minLength: 1, description: 'The user message (at most AGENT_MAX_CHAT_LENGTH characters).' }),
  session_id: Type.Optional(Type.String({ format: 'uuid', description: 'Continue this session; a new one is made when omitted.' })),
  model: Type.Optional(Type.String({ minLength: 1, description: '`provider/model` or a bare model name; default from configuration.' })),
  profile_id: Type.Optional(Type.String({ minLength: 1, description: 'Prompt profile; default: the default profile.' })),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2, description: 'Default 0.7 (llm_settings.default_temperature).' })),
  use_memory: Type.Optional(Type.Boolean({ description: 'Recall and store memory; default preferences.enable_memory_by_default (true).' })),
  // The memory contract's own rule: a name memory would refuse is a 400 here, not turns silently lost.
  channel: Type.Optional(Type.String({ pattern: CHANNEL_PATTERN, maxLength: CHANNEL_MAX_LENGTH, description: `Memory channel for recall and storage: 1-${CHANNEL_MAX_LENGTH} letters, digits, hyphens, underscores; not _all.` })),
  additional_context: Type.Optional(Type.String({ description: 'Appended to the system prompt after the profile sections.' })),
  system_override: Type.Optional(Type.String({ description: 'Replaces the whole composed system prompt.' })),
  allowed_tools: Type.Optional(ToolNames),
  blocked_tools: Type.Optional(ToolNames),
}, { additionalProperties: false })

export type ChatRequest = Static<typeof ChatRequestSchema>

const UsageSchema = Type.Object({ prompt_tokens: Type.Integer(), completion_tokens: Type.Integer(), total_tokens: Type.Integer() })

export const ChatResponseSchema = Type.Object({
  task_id: Type.String(),
  status: Type.String(),
  response: Type.String(),
  answer: Type.String(),
  thinking: Type.String(),
  has_thinking: Type.Boolean(),
  session_id: Type.String(),
  reasoning_trace: Type.Integer({ description: 'Entries in the reasoning trace: one per model call.' }),
  reasoning_steps: Type.Integer({ description: 'Model calls made (tool rounds + the answer).' }),
  tokens_used: Type.Integer(),
  total_tokens: Type.Integer(),
  total_time_ms: Type.Number(),
  model: Type.String(),
  provider: Type.String(),
  usage: UsageSchema,
  tools_used: Type.Array(Type.String()),
})

export type ChatResponse = Static<typeof ChatResponseSchema>

