// Error codes of the MCP client plugin (prefix AGENT_ERR_MCP_). Messages say what to fix.
import { createError } from '@agentd/sdk'

export const McpErrors = {
  NO_TARGET: createError<[string]>('AGENT_ERR_MCP_NO_TARGET', 'Name a tool server: send {"server": "<name>"} or {"all": true} to %s.', 400),
  BOTH_TARGETS: createError<[string]>('AGENT_ERR_MCP_BOTH_TARGETS', 'Send either "server" or "all": true to %s, not both.', 400),
  UNKNOWN_SERVER: createError<[string, string, string]>('AGENT_ERR_MCP_UNKNOWN_SERVER', 'No tool server named "%s" in %s; configured: %s.', 404),
  // 400, not 409: DECISIONS.md keeps 409 for "already exists"; the fix is in the caller's config.
  DISABLED: createError<[string, string]>('AGENT_ERR_MCP_SERVER_DISABLED', 'Tool server "%s" is disabled ("enabled": false) in %s; set "enabled": true there to connect it.', 400),
  OAUTH_STATE: createError<[]>('AGENT_ERR_MCP_OAUTH_STATE', 'This authorization answer matches no authorization in progress (unknown or used "state"); start again with POST /api/mcp/connect.', 400),
  OAUTH_DENIED: createError<[string, string]>('AGENT_ERR_MCP_OAUTH_DENIED', 'The authorization server refused to authorize agentd for "%s": %s. Connect again to retry.', 400),
  OAUTH_FAILED: createError<[string, string]>('AGENT_ERR_MCP_OAUTH_FAILED', 'Exchanging the authorization code of "%s" failed: %s. Connect again to retry.', 502),
} as const
