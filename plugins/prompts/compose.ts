// Composition of the system prompt, in SPEC.md's order: global prompt (when enabled),
// tool-server tools prompt, the profile's enabled sections by `order`, additional
// context, memory context. A non-empty `system_override` replaces all of it.
import type { PromptProfile, PromptsFile } from './schema.ts'
import { PromptErrors } from './errors.ts'

import type { ComposeInput, ComposedPrompt } from '@agentd/sdk/contracts/prompts'
export type { ComposeInput, ComposedPrompt }

export const TOOLS_HEADING = 'You can call these tools:'

/** The profile a request means; throws a 404-class error for an unknown id. */
export function resolveProfile (file: PromptsFile, id: string | undefined): PromptProfile | null {
  const byFlag = file.profiles.find(p => p.is_default) ?? file.profiles.find(p => p.id === 'default') ?? file.profiles[0]
  if (id === undefined || id === '') return byFlag ?? null
  const found = file.profiles.find(p => p.id === id)
  if (found !== undefined) return found
  // SPEC.md's default value for profile_id is "default": it names the default profile whatever its id.
  if (id === 'default' && byFlag !== undefined) return byFlag
  throw new PromptErrors.UNKNOWN_PROFILE(id, file.profiles.map(p => p.id).join(', ') || 'none')
}

/** The enabled sections of a profile in `order` (file order breaks ties). */
export function enabledSections (profile: PromptProfile): PromptProfile['sections'] {
  return profile.sections
    .map((s, i) => ({ s, i }))
    .filter(x => x.s.enabled)
    .sort((a, b) => a.s.order - b.s.order || a.i - b.i)
    .map(x => x.s)
}

/** Pure composition over a loaded file; `tools_prompt` must already be filled in. */
export function composePrompt (file: PromptsFile, input: ComposeInput): ComposedPrompt {
  const profile = resolveProfile(file, input.profile_id)
  const profileId = profile?.id ?? null
  const override = input.system_override?.trim() ?? ''
  if (override !== '') return { system_prompt: override, profile_id: profileId }
  const parts: string[] = []
  const push = (text: string | undefined): void => { const s = text?.trim() ?? ''; if (s !== '') parts.push(s) }
  if (file.global_prompt.enabled) push(file.global_prompt.content)
  const tools = input.tools_prompt?.trim() ?? ''
  if (tools !== '') parts.push(`${TOOLS_HEADING}\n${tools}`)
  if (profile !== null) for (const s of enabledSections(profile)) push(s.content)
  push(input.additional_context)
  push(input.memory_context)
  return { system_prompt: parts.join('\n\n'), profile_id: profileId }
}
