// What the prompts plugin offers: its routes use all of it; other plugins get the
// PromptComposer part through the registry (`promptComposer(app, who)` in the conversation
// kit):
//
//   const { system_prompt, profile_id } = await promptComposer(app, 'The chat plugin').compose({ profile_id, memory_context })
//
// `compose` fills the tool-server tools prompt from every registered tool source unless
// the caller passes its own `tools_prompt` (the chat does, when allowed/blocked tool
// lists narrow what the model is offered), then runs the `prompt:compose` hook.
import type { FastifyInstance } from 'fastify'
import type { PromptStore } from './store.ts'
import type { PromptProfile, PromptsFile } from './schema.ts'
import { composePrompt, resolveProfile } from './compose.ts'
import type { ComposedPrompt, ComposeInput } from '@agentd/sdk/contracts/prompts'

export interface PromptsApi {
  /** The prompts file as last loaded (valid). */
  readonly file: PromptsFile
  /** Why the last edit of the file was refused (the last valid version serves meanwhile). */
  readonly lastError: string | undefined
  /** The profile an id means (undefined or "default": the default profile); throws a 404-class error for an unknown id. */
  profile: (id?: string) => PromptProfile | null
  /** The tools prompt of every tool source, one block per source. */
  toolsPrompt: () => string
  compose: (input: ComposeInput) => Promise<ComposedPrompt>
}

export function createPromptsApi (app: FastifyInstance, store: PromptStore): PromptsApi {
  const toolsPrompt = (): string => app.registry.toolSources.entries().map(([name, s]) => {
    try {
      return s.toolsPrompt?.()?.trim() ?? ''
    } catch (err) {
      app.log.warn({ err, source: name }, 'tool source failed to describe its tools; left out of the system prompt')
      return ''
    }
  }).filter(p => p !== '').join('\n')

  return {
    get file () { return store.current },
    get lastError () { return store.lastError },
    profile: (id) => resolveProfile(store.current, id),
    toolsPrompt,
    compose: async (input) => {
      const composed = composePrompt(store.current, { ...input, tools_prompt: input.tools_prompt ?? toolsPrompt() })
      const hooked = await app.hooks.run('prompt:compose', { prompt: composed.system_prompt, profile_id: composed.profile_id })
      return { system_prompt: hooked.prompt, profile_id: hooked.profile_id }
    },
  }
}
