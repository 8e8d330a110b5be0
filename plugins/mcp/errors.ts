// Error codes of the MCP client plugin (prefix AGENT_ERR_MCP_). Messages say what to fix.
import { createError } from '@agentd/sdk'

export const McpErrors = {
  NO_TARGET: createError<[string]>('AGENT_ERR_MCP_NO_TARGET', 'Name a tool server: send {"server": "<name>"} or {"all": true} to %s.', 400),
  BOTH_TARGETS: createError<[string]>('AGENT_ERR_MCP_BOTH_TARGETS', 'Send either "server" or "all": true to %s, not both.', 400),
  UNKNOWN_SERVER: createError<[string, string, string]>('AGENT_ERR_MCP_UNKNOWN_SERVER', 'No tool server named "%s" in %s; configured: %s.', 404),
  // 400, not 409: DECISIONS.md keeps 409 for "already exists"; the fix is in the caller's config.
  DISABLED: createError<[string, string]>('AGENT_ERR_MCP_SERVER_DISABLED', 'Tool server "%s" is disabled ("enabled": false) in %s; set "enabled": true there to connect it.', 400),
} as const
