// Error codes of the memory plugin.
import { createError } from '@agentd/sdk'

export const MemoryErrors = {
  STORE_UNAVAILABLE: createError<[string]>('AGENT_ERR_MEMORY_STORE_UNAVAILABLE', '%s', 503),
  NOT_CONFIGURED: createError<[string]>('AGENT_ERR_MEMORY_NOT_CONFIGURED', '%s', 503),
  NOT_FOUND: createError<[string]>('AGENT_ERR_MEMORY_NOT_FOUND', '%s', 404),
  BAD_REQUEST: createError<[string]>('AGENT_ERR_MEMORY_BAD_REQUEST', '%s', 400),
  TEXT_TOO_LONG: createError<[string, number, number]>('AGENT_ERR_MEMORY_TEXT_TOO_LONG', '%s has %d characters; the limit is %d (AGENT_MAX_TEXT_LENGTH). Send a shorter text or split it.', 413),
  CONFLICT: createError<[string]>('AGENT_ERR_MEMORY_CONFLICT', '%s', 409),
  CHANNEL_EXISTS: createError<[string]>('AGENT_ERR_MEMORY_CHANNEL_EXISTS', 'Channel "%s" already exists.', 409),
} as const
