// Gathers tools from every tool source. A source that fails to list is skipped, not fatal.
import type { FastifyInstance } from 'fastify'
import type { ToolInfo } from '@agentd/sdk/contracts/tool-source'

export interface CollectedTool { source: string, originalName: string, info: ToolInfo }

export async function collectTools (app: FastifyInstance): Promise<CollectedTool[]> {
  const lists = await Promise.all(app.registry.toolSources.entries().map(async ([source, s]) => {
    try {
      return (await s.listTools()).map(info => ({ source, originalName: info.name, info }))
    } catch (err) {
      app.log.warn({ err, source }, 'tool source failed to list its tools')
      return []
    }
  }))
  return lists.flat()
}
