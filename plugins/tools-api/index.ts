// Plugin: a route plugin over every registered tool source. Lists the tools the model
// can be offered and calls one by name, which is handy to check a tool server by hand.
// A template for route plugins: TypeBox schemas (they become the OpenAPI at /docs) and
// errors from core/errors.ts.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import { concurrencyCap, Errors } from '@agentd/sdk'
import { collectTools } from './collect.ts'

// No options; declaring an empty strict schema makes the loader refuse any given in
// plugins.json instead of passing them through unchecked.
export const options = Type.Object({}, { additionalProperties: false })

const ToolSchema = Type.Object({
  name: Type.String(), description: Type.String(), server: Type.String(),
  input_schema: Type.Record(Type.String(), Type.Unknown()), status: Type.Optional(Type.String()),
})

async function toolsApi (app: FastifyInstance): Promise<void> {
  app.get('/api/tools', {
    schema: {
      tags: ['tools'],
      summary: 'Every tool the agent can use, from every tool source',
      querystring: Type.Object({ source: Type.Optional(Type.String()) }, { additionalProperties: false }),
      response: { 200: Type.Object({ tools: Type.Array(ToolSchema), count: Type.Integer() }) },
    },
  }, async (request) => {
    const { source } = request.query as { source?: string }
    if (source !== undefined) app.registry.toolSources.get(source)
    const tools = (await collectTools(app)).filter(t => source === undefined || t.source === source).map(t => t.info)
    return { tools, count: tools.length }
  })

  const toolCalls = concurrencyCap('tool_calls', app.agentConfig.env)
  app.post('/api/tools/call', {
    schema: {
      tags: ['tools'],
      summary: 'Call one tool by name, as the model would',
      body: Type.Object({
        name: Type.String({ minLength: 1 }),
        arguments: Type.Record(Type.String(), Type.Unknown(), { default: {} }),
        timeout_seconds: Type.Number({ exclusiveMinimum: 0, maximum: 600, default: 30 }),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ tool: Type.String(), server: Type.String(), content: Type.String(), is_error: Type.Boolean() }) },
    },
  }, async (request) => {
    const body = request.body as { name: string, arguments: Record<string, unknown>, timeout_seconds: number }
    const tools = await collectTools(app)
    const found = tools.find(t => t.info.name === body.name)
    if (found === undefined) throw new Errors.NOT_FOUND(`No tool named "${body.name}". GET /api/tools lists them.`)
    const source = app.registry.toolSources.get(found.source)
    const result = await toolCalls.run(async () => await source.callTool(found.originalName, body.arguments, { timeoutMs: body.timeout_seconds * 1000 }))
    return { tool: body.name, server: found.info.server, content: result.content, is_error: result.isError }
  })
}

export default fp(toolsApi, { name: 'tools-api', fastify: '5.x' })
