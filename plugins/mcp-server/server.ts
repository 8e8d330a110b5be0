// The MCP server side of the plugin (index.ts): the SDK's Server with agentd's tools,
// resources and prompts. In a module of its own because it pulls in the MCP SDK and zod (~7 MB of
// heap together with the client side): index.ts imports it on the first POST to /mcp.
import { Type, type Static, type TSchema } from '@agentd/sdk/typebox'
import { check, formatErrors } from '@agentd/sdk'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema, RequestSchema } from '@modelcontextprotocol/sdk/types.js'
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { CallApi } from './api.ts'
import { ToolInputError, callTool, toolList } from './tools.ts'
import { ResourceError, readResource, resourceList, resourceTemplates } from './resources.ts'
import { PromptError, getPrompt, promptList } from './prompts.ts'
import { complete } from './completions.ts'

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

type SdkRequestSchema = typeof CallToolRequestSchema | typeof CompleteRequestSchema | typeof ListToolsRequestSchema | typeof ListResourcesRequestSchema | typeof ListResourceTemplatesRequestSchema | typeof ReadResourceRequestSchema | typeof ListPromptsRequestSchema | typeof GetPromptRequestSchema

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
const CompleteParams = Type.Object({
  ref: Type.Object({ type: Type.Union([Type.Literal('ref/prompt'), Type.Literal('ref/resource')]), name: Type.Optional(Type.String()), uri: Type.Optional(Type.String()) }),
  argument: Type.Object({ name: Type.String(), value: Type.String() }),
  context: Type.Optional(Type.Unknown()),
})
const GetPromptParams = Type.Object({ name: Type.String({ minLength: 1 }), arguments: Type.Optional(Type.Record(Type.String(), Type.String())) })

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

export function buildServer (api: CallApi, version: string): Server {
  const server = new Server(
    { name: 'agentd', title: 'agentd memory and agent', version },
    {
      // Prompts: the prompt profiles (no listChanged: the transport is stateless, there is no
      // session to notify). No logging: a level set by logging/setLevel would have no session
      // to hold it either.
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      instructions: 'agentd\'s long-term memory: recall before answering from memory, remember facts worth keeping, forget what is wrong. Channels keep memories apart; _global is shared by all.',
    },
  )
  server.setRequestHandler(loose(ListToolsRequestSchema), (req) => { onePage('tools/list', req.params); return { tools: toolList() } })
  server.setRequestHandler(loose(CallToolRequestSchema), async (req, extra) => {
    const p = req.params as { name: string, arguments?: unknown, _meta?: { progressToken?: string | number } }
    const token = p._meta?.progressToken
    const progress = token === undefined
      ? undefined
      : async (progress: number, total: number, message: string): Promise<void> => { await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } }) }
    try {
      return await callTool(p.name, p.arguments, api, progress)
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
  server.setRequestHandler(loose(ListPromptsRequestSchema), async (req) => {
    onePage('prompts/list', req.params)
    try {
      return await promptList(api)
    } catch (err) {
      if (err instanceof PromptError) throw new RpcError(ErrorCode.InternalError, err.message)
      throw err
    }
  })
  server.setRequestHandler(loose(GetPromptRequestSchema), async (req) => {
    const { name } = params('prompts/get', GetPromptParams, req.params)
    try {
      return await getPrompt(name, api)
    } catch (err) {
      // An unknown prompt is invalid params (the MCP specification's code for it).
      if (err instanceof PromptError) throw new RpcError(err.notFound ? ErrorCode.InvalidParams : ErrorCode.InternalError, err.message, { name })
      throw err
    }
  })
  server.setRequestHandler(loose(CompleteRequestSchema), async (req) => await complete(params('completion/complete', CompleteParams, req.params), api))
  return server
}
