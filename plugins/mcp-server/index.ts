// Plugin: agentd as an MCP server, so Claude Desktop, Cursor or another agentd can use
// its memory. MCP over streamable HTTP at `/mcp` (the MCP SDK's server side), behind the
// same API key as every route (X-API-Key or Authorization: Bearer, passed on to the calls
// its tools make), and refusing a foreign Host or Origin with the SDK's own DNS-rebinding
// options (rebinding.ts) behind the kernel's check. Stateless: each POST carries one JSON-RPC exchange and is
// served by a fresh Server and transport (no session to keep, nothing to leak across
// reloads); GET (a server-to-client stream) and DELETE (no session to end) are 405, which
// the transport spec allows. test/mcp/mcp-conformance.test.ts holds it to what MCP clients
// expect of a server.
// Tools and resources are calls of the public API (api.ts), so the plugin needs no other
// plugin's code: with memory or agent disabled, their tools answer that they are not there.
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { Type, type Static } from '@agentd/sdk/typebox'
import { NOT_JSON, parseJsonOrMark, type PluginOptions } from '@agentd/sdk'
import { apiCaller, credentialsOf } from './api.ts'
import { rebindingRules } from './rebinding.ts'

export const options = Type.Object({
  path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*$', default: '/mcp', description: 'where MCP is served' }),
})
type Options = Static<typeof options>

/** JSON-RPC's parse error. */
const PARSE_ERROR = -32700

// The SDK's side (server.ts) is imported on the first POST, not at start.
let serverModule: Promise<typeof import('./server.ts')> | undefined
const loadServer = async (): Promise<typeof import('./server.ts')> => await (serverModule ??= import('./server.ts').catch((err: unknown) => { serverModule = undefined; throw err }))

/** What the JSON parser of the /mcp route hands on for a body that is not JSON (answered as JSON-RPC's parse error). */

/** A request (or one of a batch) with `_meta.progressToken`: the client takes notifications/progress for it. */
function asksProgress (body: unknown): boolean {
  const one = (m: unknown): boolean => (m as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined
  return Array.isArray(body) ? body.some(one) : one(body)
}

/** A JSON-RPC error answered before the transport (which never saw a message): id null. */
function rpcError (reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send({ jsonrpc: '2.0', id: null, error: { code, message } })
}

async function mcpServer (app: FastifyInstance, opts: PluginOptions<Options>): Promise<void> {
  const version = app.kernel.version
  const rules = rebindingRules(app.agentConfig.env)
  // A scope of its own, so that its JSON parser (a body that does not parse is JSON-RPC's
  // -32700 here, not the API's 400) is this route's only.
  await app.register(async scope => {
    parseJsonOrMark(scope)
    scope.post(opts.path, {
      schema: {
        tags: ['mcp'],
        summary: 'MCP over streamable HTTP (JSON-RPC): tools recall, remember, forget, list_channels, run_agent_task; resources for channels, entities and facts',
        description: 'Stateless: send the MCP `initialize` exchange, then any request, each as a POST; no `Mcp-Session-Id` is issued, GET and DELETE are 405. Answers are JSON (`enableJsonResponse`). Needs `Accept: application/json, text/event-stream` as the MCP transport requires (else 406) and `Content-Type: application/json` (else 415); a body that is not JSON is 400 with JSON-RPC error -32700.',
        body: Type.Unknown(),
        // The transport writes the answer itself (reply.hijack): documented, never serialized here.
        response: {
          200: { description: 'The JSON-RPC response', content: { 'application/json': { schema: JsonRpcResponse } } },
          202: { description: 'A notification or response was accepted (no body)', type: 'null' },
        },
      },
      config: { openapiErrors: { name: 'JsonRpcError', schema: JsonRpcErrorDoc } },
    }, async (request, reply) => {
      if (request.body === NOT_JSON) return rpcError(reply, 400, PARSE_ERROR, 'Parse error: the body is not JSON')
      const { buildServer, StreamableHTTPServerTransport } = await loadServer()
      const server = buildServer(apiCaller(app, credentialsOf(request.headers)), version)
      const guard = rules.guard(request.raw, request.socket.localPort ?? 0)
      // JSON answers, but a call that asks for progress (a progressToken) is answered as an
      // event stream: its notifications/progress go out before the result.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !asksProgress(request.body), ...guard })
      reply.hijack()
      reply.raw.once('close', () => { void transport.close(); void server.close() })
      await server.connect(transport)
      // No body (text/plain and other types the transport refuses with 415 itself): its own answer.
      await transport.handleRequest(request.raw, reply.raw, request.body ?? null)
    })
  })
}

const JsonRpcResponse = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Union([Type.String(), Type.Number()]),
  result: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'MCP result: initialize, tools/list, tools/call, resources/read...' })),
  error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Unknown()) })),
})
const JsonRpcErrorDoc = {
  description: 'A JSON-RPC error (a body that is not JSON: -32700; a refused Accept or Content-Type: 406/415 from the transport). A missing API key (401) or a refused Host/Origin (403) is the server\'s `Error` body.',
  oneOf: [
    { type: 'object', required: ['jsonrpc', 'error'], properties: { jsonrpc: { type: 'string', enum: ['2.0'] }, id: { type: ['string', 'number', 'null'] }, error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' } } } } },
    { $ref: '#/components/schemas/Error' },
  ],
}

export default fp(mcpServer, { name: 'mcp-server', fastify: '5.x' })
