// agentd's end of an OAuth authorization (MCP authorization, authorization code with
// PKCE): the authorization server sends the person's browser back here with `code` and
// `state`; the state names the tool server that asked (a state nobody asked for is a 400),
// the code is exchanged for tokens (stored by oauth.ts) and the server connects. The
// route is public like the console's pages, since a browser that follows a redirect holds
// no API key; it does nothing without a state agentd issued, and shows no token.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { McpManager } from './manager.ts'
import { McpErrors } from './errors.ts'

const CallbackQuery = Type.Object({
  state: Type.String({ minLength: 1 }),
  code: Type.Optional(Type.String({ minLength: 1 })),
  error: Type.Optional(Type.String()),
  error_description: Type.Optional(Type.String()),
}, { additionalProperties: true, description: 'authorization servers may add parameters of their own (iss, session_state)' })

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)

export function oauthRoutes (app: FastifyInstance, manager: McpManager): void {
  app.get('/api/mcp/oauth/callback', {
    config: { public: true },
    schema: {
      tags: ['mcp'],
      summary: "The OAuth redirect target of tool servers with auth \"oauth\": finishes the authorization and connects the server",
      description: 'Opened by the browser the authorization server redirects; answers a short HTML page. An unknown state is 400, a refusal by the authorization server 400, a failed code exchange 502.',
      querystring: CallbackQuery,
      response: { 200: { description: 'The page the person sees: authorized, and the server\'s state', content: { 'text/html': { schema: Type.String() } } } },
    },
  }, async (request, reply) => {
    const q = request.query as { state: string, code?: string, error?: string, error_description?: string }
    const conn = manager.byAuthState(q.state)
    if (conn === undefined) throw new McpErrors.OAUTH_STATE()
    if (q.code === undefined) {
      if (conn.oauth !== undefined) conn.oauth.pendingState = undefined
      throw new McpErrors.OAUTH_DENIED(conn.name, conn.redact(q.error_description ?? q.error ?? 'no code in the answer'))
    }
    try {
      await conn.finishAuth(q.code)
    } catch (err) {
      throw new McpErrors.OAUTH_FAILED(conn.name, conn.redact((err as Error).message))
    }
    const state = conn.status === 'connected' ? 'is connected' : `is ${conn.status}${conn.error !== undefined ? ` (${conn.error})` : ''}`
    return await reply.type('text/html; charset=utf-8').send(
      `<!doctype html><meta charset="utf-8"><title>agentd: authorized</title><p>agentd is authorized for tool server <b>${escapeHtml(conn.name)}</b>, which ${escapeHtml(state)}. You can close this tab.</p>`)
  })
}
