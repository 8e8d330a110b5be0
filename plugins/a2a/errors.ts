// The a2a plugin's errors. A caller's mistake found before any work (checkInput) is
// answered as A2A's invalid-params error (-32602) with this sentence; one during a task
// ends it `failed` with the sentence as its status message.
import { createError } from '@agentd/sdk'

export const A2AErrors = {
  EMPTY: createError('AGENT_ERR_A2A_EMPTY', 'The message has no text part; send the text to answer as a part { "text": "..." }.', 400),
  NOT_TEXT: createError<[string]>('AGENT_ERR_A2A_NOT_TEXT', 'agentd\'s skills take text; this message also holds %s parts. Send text parts only.', 400),
  TOO_LONG: createError<[number, number]>('AGENT_ERR_A2A_TOO_LONG', 'The message is %d characters long; the limit is %d (AGENT_MAX_CHAT_LENGTH).', 413),
  UNKNOWN_SKILL: createError<[string, string]>('AGENT_ERR_A2A_UNKNOWN_SKILL', 'Unknown skill "%s" in the message metadata; this agent\'s skills: %s.', 400),
  NO_TARGET: createError('AGENT_ERR_A2A_NO_TARGET', 'The translate skill needs metadata "target_language", an NLLB-200 code such as "fra_Latn" (GET /api/tools/languages lists them).', 400),
  NO_AGENT: createError('AGENT_ERR_A2A_NO_AGENT', 'The agent-run skill needs the agent plugin; enable it in plugins.json.', 503),
  RUN_FAILED: createError<[string, string]>('AGENT_ERR_A2A_RUN_FAILED', 'The agent run (strategy %s) did not complete: %s', 502),
  TRANSLATION: createError<[number, string]>('AGENT_ERR_A2A_TRANSLATION', 'The translation failed (HTTP %d): %s', 502),
} as const
