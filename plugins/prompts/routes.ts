// /api/prompts/*. The tools prompt (/api/prompts/mcp-tools) is served here too, from every
// registered tool source, so it exists whichever tool plugins are loaded.
import type { FastifyInstance } from 'fastify'
import { Type } from '@agentd/sdk/typebox'
import type { PromptStore, ProfilePatch } from './store.ts'
import type { PromptsApi } from './api.ts'
import { SECTION_TYPES, type PromptSection } from './schema.ts'
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

type Deps = { store: PromptStore, api: PromptsApi }

export async function promptRoutes (app: FastifyInstance, deps: Deps): Promise<void> {
  profileReadRoutes(app, deps)
  globalRoutes(app, deps)
  profileEditRoutes(app, deps)
  compositionRoutes(app, deps)
}

function profileReadRoutes (app: FastifyInstance, { store, api }: Deps): void {

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
}

function globalRoutes (app: FastifyInstance, { store }: Deps): void {
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
}

// Profile edits. Bodies are strict (unknown keys and wrong types are 400, by the
// validator); every section is given whole, in the order the profile should list them.
const SectionIn = Type.Object({
  id: Type.String({ pattern: '^[A-Za-z0-9_.-]+$', minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1 }),
  type: Type.Union(SECTION_TYPES.map(s => Type.Literal(s))),
  content: Type.String(),
  enabled: Type.Boolean(),
  order: Type.Integer(),
}, { additionalProperties: false })
const editable = {
  name: Type.String({ minLength: 1 }),
  description: Type.String(),
  is_default: Type.Boolean(),
  sections: Type.Array(SectionIn),
}
const uniqueSections = (sections: PromptSection[] | undefined): void => {
  const seen = new Set<string>()
  for (const s of sections ?? []) {
    if (seen.has(s.id)) throw new PromptErrors.DUPLICATE_SECTION(s.id)
    seen.add(s.id)
  }
}
const ProfileParams = Type.Object({ profile_id: Type.String({ minLength: 1 }) })


function profileEditRoutes (app: FastifyInstance, { store }: Deps): void {
  app.post('/api/prompts/profiles', {
    schema: {
      tags: ['prompts'],
      summary: 'Create a prompt profile; persisted to system_prompts.yaml',
      description: '409 when the id is taken. `is_default: true` moves the default to the new profile.',
      body: Type.Object({
        id: Type.String({ pattern: '^[A-Za-z0-9_.-]+$', minLength: 1, maxLength: 100 }),
        name: editable.name,
        description: Type.Optional(editable.description),
        is_default: Type.Optional(editable.is_default),
        sections: Type.Optional(editable.sections),
      }, { additionalProperties: false }),
      response: { 201: Type.Object({ profile: ProfileOut }) },
    },
  }, async (request, reply) => {
    const body = request.body as { id: string, name: string, description?: string, is_default?: boolean, sections?: PromptSection[] }
    uniqueSections(body.sections)
    const profile = await store.createProfile({
      id: body.id, name: body.name, description: body.description ?? '', is_default: body.is_default ?? false, sections: body.sections ?? [],
    })
    return await reply.code(201).send({ profile })
  })

  app.post('/api/prompts/profiles/:profile_id/update', {
    schema: {
      tags: ['prompts'],
      summary: 'Change a prompt profile; persisted to system_prompts.yaml',
      description: 'Only the given fields change; `sections` replaces the whole list (send every section, in order). `is_default: true` moves the default here; `false` on the default profile is 400 (make another one the default).',
      params: ProfileParams,
      body: Type.Object({
        name: Type.Optional(editable.name),
        description: Type.Optional(editable.description),
        is_default: Type.Optional(editable.is_default),
        sections: Type.Optional(editable.sections),
      }, { additionalProperties: false }),
      response: { 200: Type.Object({ profile: ProfileOut }) },
    },
  }, async (request) => {
    const { profile_id: id } = request.params as { profile_id: string }
    const body = request.body as ProfilePatch
    if (body.name === undefined && body.description === undefined && body.is_default === undefined && body.sections === undefined) throw new PromptErrors.EMPTY_PROFILE_UPDATE()
    uniqueSections(body.sections)
    return { profile: await store.updateProfile(id, body) }
  })

  app.delete('/api/prompts/profiles/:profile_id', {
    schema: {
      tags: ['prompts'],
      summary: 'Delete a prompt profile (not the default or the only one: 400)',
      params: ProfileParams,
      response: { 200: Type.Object({ deleted: Type.String(), message: Type.String() }) },
    },
  }, async (request) => {
    const { profile_id: id } = request.params as { profile_id: string }
    await store.deleteProfile(id)
    return { deleted: id, message: `Prompt profile "${id}" deleted.` }
  })
}

function compositionRoutes (app: FastifyInstance, { store, api }: Deps): void {
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
