// Plugin: agentd as an MCP server, so Claude Desktop, Cursor or another agentd can use
// its memory. MCP over streamable HTTP at `/mcp` (the MCP SDK's server side), behind the
// same X-API-Key as every route. Stateless: each POST carries one JSON-RPC exchange and is
// served by a fresh Server and transport (no session to keep, nothing to leak across
// reloads); GET (a server-to-client stream) and DELETE (no session to end) are 405, which
// the transport spec allows. test/mcp/mcp-conformance.test.ts holds it to what MCP clients
// expect of a server.
// Tools and resources are calls of the public API (api.ts), so the plugin needs no other
// plugin's code: with memory or agent disabled, their tools answer that they are not there.
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type, type Static, type TSchema } from 'typebox'
import { check, formatErrors, type PluginOptions } from '@agentd/sdk'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, RequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { apiCaller, type CallApi } from './api.ts'
import { ToolInputError, callTool, toolList } from './tools.ts'
import { ResourceError, readResource, resourceList, resourceTemplates } from './resources.ts'

export const options = Type.Object({
  path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*$', default: '/mcp', description: 'where MCP is served' }),
})
type Options = Static<typeof options>

/**
 * A JSON-RPC error to answer with: the SDK sends `code`, `message` and `data` of what a
 * handler throws. (Its McpError would put "MCP error <code>: " before the message on the
 * wire, which a client's own McpError then prefixes again.)
 */
class RpcError extends Error {
  readonly code: number
  readonly data: unknown
  constructor (code: number, message: string, data?: unknown) { super(message); this.code = code; this.data = data }
}

/** MCP's code for an unknown resource (the spec's -32002). */
const RESOURCE_NOT_FOUND = -32002

type SdkRequestSchema = typeof CallToolRequestSchema | typeof ListToolsRequestSchema | typeof ListResourcesRequestSchema | typeof ListResourceTemplatesRequestSchema | typeof ReadResourceRequestSchema

/**
 * A request schema that only fixes the method: the SDK would answer params that fail its
 * own schema with -32603 (internal error); checked here instead, they are -32602 (invalid
 * params) as JSON-RPC and MCP say. (tools/call's params are still checked by the SDK's
 * Server, which answers -32602 itself.)
 */
// The return type is a Zod schema's, inferred.
function loose<S extends SdkRequestSchema> (schema: S) { return RequestSchema.extend({ method: schema.shape.method }) }

const ListParams = Type.Object({ cursor: Type.Optional(Type.String()) })
const ReadParams = Type.Object({ uri: Type.String({ minLength: 1 }) })

function params<S extends TSchema> (method: string, schema: S, value: unknown): Static<S> {
  const c = check(schema, value ?? {})
  if (!c.ok) throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatErrors(c.errors)}`)
  return c.value
}

/** Everything is listed on one page, so no cursor was ever given out: any cursor is invalid. */
function onePage (method: string, p: unknown): void {
  const { cursor } = params(method, ListParams, p)
  if (cursor !== undefined) throw new RpcError(ErrorCode.InvalidParams, `Unknown cursor for ${method}: this server lists everything on one page and gives no nextCursor.`)
}

function buildServer (api: CallApi, version: string): Server {
  const server = new Server(
    { name: 'agentd', title: 'agentd memory and agent', version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: 'agentd\'s long-term memory: recall before answering from memory, remember facts worth keeping, forget what is wrong. Channels keep memories apart; _global is shared by all.',
    },
  )
  server.setRequestHandler(loose(ListToolsRequestSchema), (req) => { onePage('tools/list', req.params); return { tools: toolList() } })
  server.setRequestHandler(loose(CallToolRequestSchema), async (req) => {
    const p = req.params as { name: string, arguments?: unknown }
    try {
      return await callTool(p.name, p.arguments, api)
    } catch (err) {
      if (err instanceof ToolInputError) throw new RpcError(ErrorCode.InvalidParams, err.message)
      throw err
    }
  })
  server.setRequestHandler(loose(ListResourcesRequestSchema), (req) => { onePage('resources/list', req.params); return { resources: resourceList() } })
  server.setRequestHandler(loose(ListResourceTemplatesRequestSchema), (req) => { onePage('resources/templates/list', req.params); return { resourceTemplates: resourceTemplates() } })
  server.setRequestHandler(loose(ReadResourceRequestSchema), async (req) => {
    const { uri } = params('resources/read', ReadParams, req.params)
    try {
      return await readResource(uri, api)
    } catch (err) {
      if (err instanceof ResourceError) throw new RpcError(err.notFound ? RESOURCE_NOT_FOUND : ErrorCode.InternalError, err.message, { uri })
      throw err
    }
  })
  return server
}

/** What the JSON parser of the /mcp route hands on for a body that is not JSON (answered as JSON-RPC's parse error). */
const NOT_JSON = Symbol('mcp: body is not JSON')

/** A JSON-RPC error answered before the transport (which never saw a message): id null. */
function rpcError (reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send({ jsonrpc: '2.0', id: null, error: { code, message } })
}

async function mcpServer (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const version = app.kernel.version
  // A scope of its own, so that its JSON parser (a body that does not parse is JSON-RPC's
  // -32700 here, not the API's 400) is this route's only.
  await app.register(async scope => {
    const json = scope.getDefaultJsonParser('error', 'ignore')
    scope.removeContentTypeParser('application/json')
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body.length === 0) { done(null, NOT_JSON); return }
      json(request, body as string, (err, value) => { done(null, err === null ? value : NOT_JSON) })
    })
    scope.post(opts.path, {
      schema: {
        tags: ['mcp'],
        summary: 'MCP over streamable HTTP (JSON-RPC): tools recall, remember, forget, list_channels, run_agent_task; resources for channels, entities and facts',
        description: 'Stateless: send the MCP `initialize` exchange, then any request, each as a POST; no `Mcp-Session-Id` is issued, GET and DELETE are 405. Answers are JSON (`enableJsonResponse`). Needs `Accept: application/json, text/event-stream` as the MCP transport requires (else 406) and `Content-Type: application/json` (else 415); a body that is not JSON is 400 with JSON-RPC error -32700.',
        body: Type.Unknown(),
      },
    }, async (request, reply) => {
      if (request.body === NOT_JSON) return rpcError(reply, 400, ErrorCode.ParseError, 'Parse error: the body is not JSON')
      const key = request.headers['x-api-key']
      const server = buildServer(apiCaller(app, typeof key === 'string' ? key : undefined), version)
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      reply.hijack()
      reply.raw.once('close', () => { void transport.close(); void server.close() })
      await server.connect(transport)
      // No body (text/plain and other types the transport refuses with 415 itself): its own answer.
      await transport.handleRequest(request.raw, reply.raw, request.body ?? null)
    })
  })
}

export default fp(mcpServer, { name: 'mcp-server', fastify: '5.x' })
