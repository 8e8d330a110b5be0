// Error codes of the chat plugin.
import { createError } from '@agentd/sdk'

export const ChatErrors = {
  TOO_LONG: createError<[number, number]>('AGENT_ERR_CHAT_TOO_LONG', 'The message is %d characters long; the limit is %d (AGENT_MAX_CHAT_LENGTH). Shorten it or raise the limit.', 413),
  NO_PROMPTS: createError('AGENT_ERR_CHAT_NO_PROMPTS', 'The chat plugin needs the prompts plugin: add { "name": "prompts", "module": "./plugins/prompts" } before it in plugins.json.', 500),
  PROVIDER_FAILED: createError<[string, string]>('AGENT_ERR_CHAT_PROVIDER_FAILED', 'The model provider "%s" failed: %s', 502),
  UNKNOWN_SESSION: createError<[string]>('AGENT_ERR_CHAT_UNKNOWN_SESSION', 'No chat session "%s" (it may have expired). GET /api/chat/sessions lists the sessions kept.', 404),
  SESSIONS_UNAVAILABLE: createError<[string]>('AGENT_ERR_CHAT_SESSIONS_UNAVAILABLE', '%s', 503),
} as const
