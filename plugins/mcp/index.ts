// Plugin: MCP client. Connects to the tool servers of mcp_servers.json (stdio, SSE,
// streamable HTTP), keeps the connections in the resource pool across reloads of
// plugins.json, applies edits of mcp_servers.json live, and offers the servers' tools to
// the chat loop as a tool source.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import path from 'node:path'
import type { PluginOptions } from '@agentd/sdk'
import { options, type McpPluginOptions } from './options.ts'
import { McpManager } from './manager.ts'
import { shownPath } from './config.ts'
import { createMcpSource } from './source.ts'
import { mcpRoutes } from './routes.ts'
import { mcpHealth } from './health.ts'
import { watchShadowing } from './shadow.ts'
import { oauthRoutes } from './oauth-routes.ts'

export { options }

/** The address the server is bound to, as a browser on this machine reaches it (0.0.0.0 and :: are not addresses to open). */
function boundUrl (env: Readonly<Record<string, string | undefined>>): string {
  const host = env.API_HOST === undefined || env.API_HOST === '0.0.0.0' || env.API_HOST === '::' ? '127.0.0.1' : env.API_HOST
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.API_PORT ?? '12319'}`
}

async function mcp (app: FastifyInstance, opts: PluginOptions<McpPluginOptions>): Promise<void> {
  const { instance, ...pluginOptions } = opts
  const settings = app.agentConfig.settings
  // The MCP file is this plugin's: MCP_SERVERS_FILE, relative to the working directory.
  const file = path.resolve(settings.cwd, app.agentConfig.env.MCP_SERVERS_FILE ?? './mcp_servers.json')
  const manager = await app.resources.acquire({
    kind: 'mcp-manager',
    // Keyed by the file only: plugin options apply live (setOptions) without reconnecting anything.
    options: { file, instance },
    create: () => new McpManager({
      file,
      shownFile: shownPath(file, settings.cwd),
      env: app.agentConfig.env,
      log: app.log.child({ plugin: instance }),
      clientVersion: app.kernel.version,
      debounceMs: settings.reloadDebounceMs,
      options: pluginOptions,
      oauth: { dir: path.join(settings.dataDir, 'mcp-oauth'), publicUrl: app.agentConfig.env.AGENT_PUBLIC_URL, boundUrl: boundUrl(app.agentConfig.env) },
    }),
    dispose: async (m) => { await m.close() },
  })
  manager.setOptions(pluginOptions)
  app.registry.toolSources.add(instance, createMcpSource(instance, manager))
  app.registry.healthContributors.add(instance, mcpHealth(manager))
  const env = app.agentConfig.env
  const shadowing = watchShadowing(manager, () => app.registry.toolSources.entries(), instance, app.log.child({ plugin: instance }))
  // The watcher on mcp_servers.json and the first connections start only once this generation serves.
  app.lifecycle.add({
    name: `${instance}:servers`,
    activate: async () => {
      // The pooled manager outlives generations; .env is re-read for each one, so its
      // ${VAR}s resolve from this generation's environment (only changed servers reconnect).
      manager.setEnv(env)
      await manager.activate()
      shadowing.start()
    },
    deactivate: async () => { shadowing.stop(); await manager.deactivate() },
  })
  mcpRoutes(app, manager, instance)
  oauthRoutes(app, manager)
}

export default fp(mcp, { name: 'mcp', fastify: '5.x' })
