// Error codes of the translation plugin.
import { createError } from '@agentd/sdk'

export const TranslateErrors = {
  NO_TEXT: createError('AGENT_ERR_TRANSLATION_NO_TEXT', 'Send the text to translate in "text"; it must not be empty.', 400),
  TEXT_TOO_LONG: createError<[number, number]>('AGENT_ERR_TRANSLATION_TEXT_TOO_LONG', 'The text has %d characters; the limit is %d (AGENT_MAX_TEXT_LENGTH). Send a shorter text or split it.', 413),
  UNKNOWN_LANGUAGE: createError<[string]>('AGENT_ERR_TRANSLATION_UNKNOWN_LANGUAGE', '%s', 400),
  NO_SOURCE: createError('AGENT_ERR_TRANSLATION_NO_SOURCE', 'The source language was not given and no language detector is loaded: send "sourceLanguage" (an NLLB-200 code, see GET /api/tools/languages) or enable the language-detect plugin.', 400),
  SOURCE_UNCERTAIN: createError<[string]>('AGENT_ERR_TRANSLATION_SOURCE_UNCERTAIN', '%s', 422),
  UNAVAILABLE: createError<[string]>('AGENT_ERR_TRANSLATION_UNAVAILABLE', '%s', 503),
  LOADING: createError<[string]>('AGENT_ERR_TRANSLATION_LOADING', '%s', 503),
} as const
