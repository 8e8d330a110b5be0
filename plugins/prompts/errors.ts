// Error codes of the prompts plugin.
import { createError } from '@agentd/sdk'

export const PromptErrors = {
  UNKNOWN_PROFILE: createError<[string, string]>('AGENT_ERR_PROMPTS_UNKNOWN_PROFILE', 'No prompt profile "%s"; available: %s. GET /api/prompts/profiles lists them.', 404),
  INVALID_FILE: createError<[string]>('AGENT_ERR_PROMPTS_INVALID_FILE', '%s', 422),
  EMPTY_UPDATE: createError('AGENT_ERR_PROMPTS_EMPTY_UPDATE', 'Send "content" (string) and/or "enabled" (boolean) to update the global prompt.', 400),
  EMPTY_PROFILE_UPDATE: createError('AGENT_ERR_PROMPTS_EMPTY_UPDATE', 'Send at least one of "name", "description", "is_default", "sections" to update a profile.', 400),
  PROFILE_EXISTS: createError<[string, string]>('AGENT_ERR_PROMPTS_PROFILE_EXISTS', 'A prompt profile "%s" already exists; POST /api/prompts/profiles/%s/update changes it.', 409),
  DUPLICATE_SECTION: createError<[string]>('AGENT_ERR_VALIDATION', 'Section id "%s" is used twice; section ids must be unique within a profile.', 400),
  DEFAULT_PROFILE_REQUIRED: createError<[string]>('AGENT_ERR_PROMPTS_DEFAULT_PROFILE', '%s', 400),

} as const
