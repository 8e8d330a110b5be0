// The MCP tool source registered in app.registry.toolSources: what the chat loop sees.
import type { ToolInfo, ToolResult, ToolSource } from '@agentd/sdk/contracts/tool-source'
import type { McpManager } from './manager.ts'
import { renderToolsPrompt } from './prompt.ts'

export function createMcpSource (id: string, manager: McpManager): ToolSource {
  return {
    id,
    listTools: (): ToolInfo[] => manager.toolViews().map(v => ({
      name: v.name,
      description: v.tool.description ?? '',
      input_schema: v.tool.inputSchema as Record<string, unknown>,
      server: v.server,
      status: v.status,
    })),
    callTool: async (name, args, options): Promise<ToolResult> => await manager.callTool(name, args, options),
    toolsPrompt: () => renderToolsPrompt(manager.toolViews()),
  }
}
