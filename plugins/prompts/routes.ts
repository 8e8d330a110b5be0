// /api/prompts/*. The tools prompt (/api/prompts/mcp-tools) is served here too, from every
// registered tool source, so it exists whichever tool plugins are loaded.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { PromptStore } from './store.ts'
import type { PromptsApi } from './api.ts'
import { SECTION_TYPES } from './schema.ts'
import { PromptErrors } from './errors.ts'
import { collectToolSet } from '@agentd/sdk/kits/tools'

const SectionOut = Type.Object({
  id: Type.String(), name: Type.String(), type: Type.Union(SECTION_TYPES.map(s => Type.Literal(s))),
  content: Type.String(), enabled: Type.Boolean(), order: Type.Integer(),
})
const ProfileOut = Type.Object({
  id: Type.String(), name: Type.String(), description: Type.String(), is_default: Type.Boolean(), sections: Type.Array(SectionOut),
})
const GlobalOut = Type.Object({ content: Type.String(), enabled: Type.Boolean() })

export async function promptRoutes (app: FastifyInstance, deps: { store: PromptStore, api: PromptsApi }): Promise<void> {
  const { store, api } = deps

  app.get('/api/prompts/profiles', {
    schema: {
      tags: ['prompts'],
      summary: 'Prompt profiles with their section counts',
      response: {
        200: Type.Object({
          profiles: Type.Array(Type.Object({
            id: Type.String(), name: Type.String(), description: Type.String(), is_default: Type.Boolean(),
            sections_count: Type.Integer(), enabled_sections: Type.Integer(),
          })),
        }),
      },
    },
  }, async () => {
    const file = store.current
    const dflt = api.profile()?.id
    return {
      profiles: file.profiles.map(p => ({
        id: p.id, name: p.name, description: p.description, is_default: p.id === dflt,
        sections_count: p.sections.length, enabled_sections: p.sections.filter(s => s.enabled).length,
      })),
    }
  })

  app.get('/api/prompts/profiles/:profile_id', {
    schema: {
      tags: ['prompts'],
      summary: 'One profile with its sections, and the system prompt it composes',
      params: Type.Object({ profile_id: Type.String({ minLength: 1 }) }),
      response: { 200: Type.Object({ profile: ProfileOut, composed_prompt: Type.String() }) },
    },
  }, async (request) => {
    const { profile_id: id } = request.params as { profile_id: string }
    const profile = api.profile(id)
    if (profile === null) throw new PromptErrors.UNKNOWN_PROFILE(id, 'none')
    const composed = await api.compose({ profile_id: profile.id })
    return { profile, composed_prompt: composed.system_prompt }
  })

  app.get('/api/prompts/global', {
    schema: { tags: ['prompts'], summary: 'The global prompt', response: { 200: Type.Object({ global_prompt: GlobalOut }) } },
  }, async () => ({ global_prompt: store.current.global_prompt }))

  app.post('/api/prompts/global/update', {
    schema: {
      tags: ['prompts'],
      summary: 'Change the global prompt; persisted to system_prompts.yaml',
      body: Type.Object({
        content: Type.Optional(Type.String()),
        enabled: Type.Optional(Type.Boolean()),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ global_prompt: GlobalOut }) },
    },
  }, async (request) => {
    const body = request.body as { content?: string, enabled?: boolean }
    if (body.content === undefined && body.enabled === undefined) throw new PromptErrors.EMPTY_UPDATE()
    return { global_prompt: await store.updateGlobal(body) }
  })

  app.get('/api/prompts/sections', {
    schema: {
      tags: ['prompts'],
      summary: 'Every section of every profile, in composition order',
      response: { 200: Type.Object({ sections: Type.Array(Type.Object({ profile_id: Type.String(), ...SectionOut.properties })) }) },
    },
  }, async () => ({
    sections: store.current.profiles.flatMap(p => [...p.sections]
      .map((s, i) => ({ s, i }))
      .sort((a, b) => a.s.order - b.s.order || a.i - b.i)
      .map(({ s }) => ({ profile_id: p.id, ...s }))),
  }))

  app.get('/api/prompts/compose', {
    schema: {
      tags: ['prompts'],
      summary: 'The system prompt a chat with this profile starts from (before memory context)',
      querystring: Type.Object({ profile_id: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ system_prompt: Type.String(), profile_id: Type.Union([Type.String(), Type.Null()]) }) },
    },
  }, async (request) => {
    const { profile_id: id } = request.query as { profile_id?: string }
    return await api.compose({ profile_id: id })
  })

  app.get('/api/prompts/mcp-tools', {
    schema: {
      tags: ['prompts'],
      summary: 'The tool-server tools prompt added to the system prompt, and how many available tools the tool sources offer',
      description: 'The text is what composition puts under the tools heading: every registered tool source\'s own description of its tools (MCP servers, builtin tools, ...). Empty when no source describes any.',
      response: { 200: Type.Object({ mcp_tools_prompt: Type.String(), tools_count: Type.Integer() }) },
    },
  }, async () => ({ mcp_tools_prompt: api.toolsPrompt(), tools_count: await countAvailableTools(app) }))
}

/**
 * The tools a chat would offer: the chat's own tool set (every source, first source wins a
 * name clash), so a tool two sources offer counts once. A source that fails to list counts none.
 */
async function countAvailableTools (app: FastifyInstance): Promise<number> {
  const set = await collectToolSet(app.registry.toolSources.entries(), {}, (source, err) => { app.log.warn({ err, source }, 'tool source failed to list its tools; not counted') })
  return set.definitions.length
}
