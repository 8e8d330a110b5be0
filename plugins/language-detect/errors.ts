// Error codes of the language-detect plugin.
import { createError } from '@agentd/sdk'

export const DetectErrors = {
  NO_TEXT: createError('AGENT_ERR_LANGUAGE_NO_TEXT', 'Send the text to detect: POST {"text": "..."} or GET ?text=...; it must not be empty.', 400),
  NO_LETTERS: createError('AGENT_ERR_LANGUAGE_NO_LETTERS', 'The text has no letters (only digits, punctuation or symbols), so it has no language to detect; send words.', 400),
  TEXT_TOO_LONG: createError<[number, number]>('AGENT_ERR_LANGUAGE_TEXT_TOO_LONG', 'The text has %d characters; the limit is %d (AGENT_MAX_TEXT_LENGTH). Send a shorter text.', 413),
  MODEL_UNAVAILABLE: createError<[string]>('AGENT_ERR_LANGUAGE_MODEL_UNAVAILABLE', '%s', 503),
} as const
