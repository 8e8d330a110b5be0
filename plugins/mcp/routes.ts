// HTTP endpoints of the MCP client (SPEC.md "Tool servers", DECISIONS.md shapes).
// No endpoint takes a command line or returns an env/header value.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { McpManager } from './manager.ts'
import type { McpConnection } from './connection.ts'
import { McpErrors } from './errors.ts'
import { findShadowed } from './shadow.ts'

const ServerSchema = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  transport: Type.String({ description: 'as configured: stdio, sse, streamable_http, or http (streamable HTTP with SSE fallback)' }),
  active_transport: Type.Optional(Type.String({ description: 'the wire transport of the live connection' })),
  status: Type.Union(['connecting', 'connected', 'needs_auth', 'error', 'disconnected'].map(s => Type.Literal(s))),
  error: Type.Optional(Type.String()),
  auth: Type.Optional(Type.Object({
    type: Type.Literal('oauth'),
    authorized: Type.Boolean({ description: 'tokens are held (never shown)' }),
    authorization_url: Type.Optional(Type.String({ description: 'while needs_auth: the page a person opens to approve agentd' })),
  })),
  enabled: Type.Boolean(),
  auto_connect: Type.Boolean(),
  auto_reconnect: Type.Boolean(),
  tools: Type.Array(Type.String()),
  tools_count: Type.Integer(),
  resources_count: Type.Integer(),
  prompts_count: Type.Integer(),
  connected_at: Type.Optional(Type.String({ format: 'date-time' })),
  pid: Type.Optional(Type.Integer({ description: 'the child process of a stdio server' })),
  reconnect_attempt: Type.Optional(Type.Integer()),
  next_retry_at: Type.Optional(Type.String({ format: 'date-time' })),
})

const ToolSchema = Type.Object({
  name: Type.String({ description: 'unique name offered to the model (qualified as <server>__<tool> when two servers clash)' }),
  original_name: Type.String({ description: 'the name on its server' }),
  description: Type.String(),
  server: Type.String(),
  input_schema: Type.Record(Type.String(), Type.Unknown()),
  status: Type.String(),
  shadowed_by: Type.Optional(Type.String({ description: 'a tool source registered earlier that offers a tool of this name: the chat offers that one, not this' })),
})

const ResourceSchema = Type.Object({
  uri: Type.String(), name: Type.String(), description: Type.Union([Type.String(), Type.Null()]),
  mime_type: Type.Union([Type.String(), Type.Null()]), server: Type.String(),
})

const TargetBody = Type.Object({
  server: Type.Optional(Type.String({ minLength: 1 })),
  all: Type.Optional(Type.Boolean()),
}, { additionalProperties: false })

const ServerQuery = Type.Object({ server: Type.Optional(Type.String()) }, { additionalProperties: false })

async function summary (c: McpConnection, manager: McpManager): Promise<Record<string, unknown>> {
  const cfg = c.entry.config
  const auth = c.oauth === undefined ? undefined : { type: 'oauth', authorized: await c.oauth.authorized(), authorization_url: c.authorizationUrl }
  const tools = manager.toolViews().filter(v => v.server === c.name).map(v => v.name)
  return {
    name: c.name,
    description: cfg?.description,
    transport: c.entry.transport,
    active_transport: c.status === 'connected' ? c.wire : undefined,
    status: c.status,
    error: c.error,
    auth,
    enabled: c.enabled,
    auto_connect: cfg?.autoConnect ?? false,
    auto_reconnect: cfg?.autoReconnect ?? false,
    tools,
    tools_count: tools.length,
    resources_count: c.resources.length,
    prompts_count: c.prompts.length,
    connected_at: c.status === 'connected' ? c.connectedAt?.toISOString() : undefined,
    pid: c.status === 'connected' ? c.pid : undefined,
    reconnect_attempt: c.attempt > 0 ? c.attempt : undefined,
    next_retry_at: c.nextRetryAt?.toISOString(),
  }
}

export function mcpRoutes (app: FastifyInstance, manager: McpManager, instance: string): void {
  listRoutes(app, manager, instance)
  connectionRoutes(app, manager)
  // GET /api/prompts/mcp-tools is the prompts plugin's (from every tool source's toolsPrompt).
}

/** What every route needs: a server by name (404 naming the file), a {server}|{all} body read. */
function lookups (manager: McpManager): { find: (name: string, path: string) => McpConnection, target: (body: { server?: string, all?: boolean } | undefined, route: string) => { server?: string, all: boolean }, file: string } {
  const find = (name: string, path: string): McpConnection => {
    const c = manager.get(name)
    if (c === undefined) throw new McpErrors.UNKNOWN_SERVER(name, path, manager.names().join(', ') || 'none')
    return c
  }
  const target = (body: { server?: string, all?: boolean } | undefined, route: string): { server?: string, all: boolean } => {
    const all = body?.all === true
    if (body?.server !== undefined && all) throw new McpErrors.BOTH_TARGETS(route)
    if (body?.server === undefined && !all) throw new McpErrors.NO_TARGET(route)
    return { server: body?.server, all }
  }
  const file = manager.shownFile
  return { find, target, file }
}

function listRoutes (app: FastifyInstance, manager: McpManager, instance: string): void {
  const { find, file } = lookups(manager)
  app.get('/api/mcp/servers', {
    schema: {
      tags: ['mcp'],
      summary: 'Configured tool servers with their status and counts',
      response: { 200: Type.Object({ servers: Type.Array(ServerSchema), count: Type.Integer(), config_error: Type.Optional(Type.String()) }) },
    },
  }, async () => {
    const servers = await Promise.all(manager.servers().map(async c => await summary(c, manager)))
    return { servers, count: servers.length, config_error: manager.configError }
  })

  app.get('/api/mcp/tools', {
    schema: {
      tags: ['mcp'],
      summary: 'Tools of the connected tool servers, with the server of each',
      querystring: ServerQuery,
      response: { 200: Type.Object({ tools: Type.Array(ToolSchema), count: Type.Integer() }) },
    },
  }, async (request) => {
    const { server } = request.query as { server?: string }
    if (server !== undefined) find(server, file)
    const views = manager.toolViews()
    const shadowed = await findShadowed(app.registry.toolSources.entries(), instance, views)
    const tools = views.filter(v => server === undefined || v.server === server).map(v => ({
      name: v.name, original_name: v.tool.name, description: v.tool.description ?? '', server: v.server,
      input_schema: v.tool.inputSchema as Record<string, unknown>, status: v.status, shadowed_by: shadowed.get(v.name),
    }))
    return { tools, count: tools.length }
  })

  app.get('/api/mcp/resources', {
    schema: {
      tags: ['mcp'],
      summary: 'Resources of the connected tool servers',
      querystring: ServerQuery,
      response: { 200: Type.Object({ resources: Type.Array(ResourceSchema), count: Type.Integer() }) },
    },
  }, async (request) => {
    const { server } = request.query as { server?: string }
    if (server !== undefined) find(server, file)
    const resources = manager.servers()
      .filter(c => (server === undefined || c.name === server) && (c.status === 'connected' || (c.status === 'error' && c.desired)))
      .flatMap(c => c.resources.map(r => ({ uri: r.uri, name: r.name, description: r.description ?? null, mime_type: r.mimeType ?? null, server: c.name })))
    return { resources, count: resources.length }
  })

  app.get('/api/mcp/prompts', {
    schema: {
      tags: ['mcp'],
      summary: 'Prompts (templates) offered by the connected tool servers',
      querystring: ServerQuery,
      response: {
        200: Type.Object({
          prompts: Type.Array(Type.Object({
            name: Type.String(), description: Type.Union([Type.String(), Type.Null()]), server: Type.String(),
            arguments: Type.Array(Type.Object({ name: Type.String(), description: Type.Union([Type.String(), Type.Null()]), required: Type.Boolean() })),
          })),
          count: Type.Integer(),
        }),
      },
    },
  }, async (request) => {
    const { server } = request.query as { server?: string }
    if (server !== undefined) find(server, file)
    const prompts = manager.servers()
      .filter(c => (server === undefined || c.name === server) && c.status === 'connected')
      .flatMap(c => c.prompts.map(p => ({
        name: p.name, description: p.description ?? null, server: c.name,
        arguments: (p.arguments ?? []).map(a => ({ name: a.name, description: a.description ?? null, required: a.required === true })),
      })))
    return { prompts, count: prompts.length }
  })
}

function connectionRoutes (app: FastifyInstance, manager: McpManager): void {
  const { find, target, file } = lookups(manager)
  const ConnectOne = Type.Object({
    status: Type.String(), server: Type.String(), tools_count: Type.Integer(), resources_count: Type.Integer(), error: Type.Optional(Type.String()),
    authorization_url: Type.Optional(Type.String({ description: 'status needs_auth: open it to approve agentd; the authorization server then redirects to GET /api/mcp/oauth/callback' })),
  })
  const ConnectAll = Type.Object({
    results: Type.Record(Type.String(), Type.Object({ status: Type.String(), tools_count: Type.Optional(Type.Integer()), error: Type.Optional(Type.String()), authorization_url: Type.Optional(Type.String()) })),
  })

  app.post('/api/mcp/connect', {
    schema: {
      tags: ['mcp'],
      summary: 'Connect one configured tool server ({server}) or every enabled one ({all: true}); a disabled one is 400',
      description: 'A failed connection answers 200 with status "error" and the error text (SPEC.md). Commands come only from mcp_servers.json.',
      body: TargetBody,
      response: { 200: Type.Union([ConnectOne, ConnectAll]) },
    },
  }, async (request) => {
    const t = target(request.body as { server?: string, all?: boolean } | undefined, 'POST /api/mcp/connect')
    // Where a browser reaches agentd (the Host passed the kernel's allow-list): the OAuth callback's origin.
    manager.noteOrigin(`${request.protocol}://${request.host}`)
    if (!t.all) {
      const c = find(t.server as string, file)
      if (!c.enabled) throw new McpErrors.DISABLED(c.name, file)
      await c.connect()
      const tools = manager.toolViews().filter(v => v.server === c.name).length
      return { status: c.status, server: c.name, tools_count: c.status === 'connected' ? tools : 0, resources_count: c.status === 'connected' ? c.resources.length : 0, error: c.status === 'connected' ? undefined : c.error, authorization_url: c.authorizationUrl }
    }
    const targets = manager.servers().filter(c => c.enabled)
    await Promise.all(targets.map(async c => { await c.connect() }))
    const views = manager.toolViews()
    const results = Object.fromEntries(targets.map(c => [c.name, c.status === 'connected'
      ? { status: c.status, tools_count: views.filter(v => v.server === c.name).length }
      : { status: c.status, error: c.error, authorization_url: c.authorizationUrl }]))
    return { results }
  })

  app.post('/api/mcp/disconnect', {
    schema: {
      tags: ['mcp'],
      summary: 'Disconnect one tool server ({server}) or all ({all: true}); stops its automatic reconnection',
      description: 'Disconnecting a configured server that is not connected is not an error: the same 200 body.',
      body: TargetBody,
      response: { 200: Type.Union([Type.Object({ status: Type.Literal('disconnected'), server: Type.String() }), Type.Object({ results: Type.Record(Type.String(), Type.Object({ status: Type.String() })) })]) },
    },
  }, async (request) => {
    const t = target(request.body as { server?: string, all?: boolean } | undefined, 'POST /api/mcp/disconnect')
    if (!t.all) {
      const c = find(t.server as string, file)
      await c.disconnect()
      return { status: 'disconnected' as const, server: c.name }
    }
    const all = manager.servers()
    await Promise.all(all.map(async c => { await c.disconnect() }))
    return { results: Object.fromEntries(all.map(c => [c.name, { status: 'disconnected' }])) }
  })
}
