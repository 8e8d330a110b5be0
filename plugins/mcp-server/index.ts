// Plugin: agentd as an MCP server, so Claude Desktop, Cursor or another agentd can use
// its memory. MCP over streamable HTTP at `/mcp` (the MCP SDK's server side), behind the
// same X-API-Key as every route. Stateless: each POST carries one JSON-RPC exchange and is
// served by a fresh Server and transport (no session to keep, nothing to leak across
// reloads); GET (a server-to-client stream) is 405, which the transport spec allows.
// Tools and resources are calls of the public API (api.ts), so the plugin needs no other
// plugin's code: with memory or agent disabled, their tools answer that they are not there.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type, type Static } from 'typebox'
import type { PluginOptions } from '@agentd/sdk'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { apiCaller, type CallApi } from './api.ts'
import { ToolInputError, callTool, toolList } from './tools.ts'
import { ResourceError, readResource, resourceList, resourceTemplates } from './resources.ts'

export const options = Type.Object({
  path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*$', default: '/mcp', description: 'where MCP is served' }),
})
type Options = Static<typeof options>

/** MCP's code for an unknown resource (the spec's -32002). */
const RESOURCE_NOT_FOUND = -32002

function buildServer (api: CallApi, version: string): Server {
  const server = new Server(
    { name: 'agentd', title: 'agentd memory and agent', version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: 'agentd\'s long-term memory: recall before answering from memory, remember facts worth keeping, forget what is wrong. Channels keep memories apart; _global is shared by all.',
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }))
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    try {
      return await callTool(req.params.name, req.params.arguments, api)
    } catch (err) {
      if (err instanceof ToolInputError) throw new McpError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: resourceList() }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resourceTemplates() }))
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    try {
      return await readResource(req.params.uri, api)
    } catch (err) {
      if (err instanceof ResourceError) throw new McpError(err.notFound ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, err.message, { uri: req.params.uri })
      throw err
    }
  })
  return server
}

async function mcpServer (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const version = app.kernel.version
  app.post(opts.path, {
    schema: {
      tags: ['mcp'],
      summary: 'MCP over streamable HTTP (JSON-RPC): tools recall, remember, forget, list_channels, run_agent_task; resources for channels, entities and facts',
      description: 'Stateless: send the MCP `initialize` exchange, then any request, each as a POST; answers are JSON (`enableJsonResponse`). Needs `Accept: application/json, text/event-stream` as the MCP transport requires.',
      body: Type.Unknown(),
    },
  }, async (request, reply) => {
    const key = request.headers['x-api-key']
    const server = buildServer(apiCaller(app, typeof key === 'string' ? key : undefined), version)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
    reply.raw.once('close', () => { void transport.close(); void server.close() })
    await server.connect(transport)
    await transport.handleRequest(request.raw, reply.raw, request.body)
  })
}

export default fp(mcpServer, { name: 'mcp-server', fastify: '5.x' })
