// Error codes of the prompts plugin.
import { createError } from '@agentd/sdk'

export const PromptErrors = {
  UNKNOWN_PROFILE: createError<[string, string]>('AGENT_ERR_PROMPTS_UNKNOWN_PROFILE', 'No prompt profile "%s"; available: %s. GET /api/prompts/profiles lists them.', 404),
  INVALID_FILE: createError<[string]>('AGENT_ERR_PROMPTS_INVALID_FILE', '%s', 422),
  EMPTY_UPDATE: createError('AGENT_ERR_PROMPTS_EMPTY_UPDATE', 'Send "content" (string) and/or "enabled" (boolean) to update the global prompt.', 400),
} as const
