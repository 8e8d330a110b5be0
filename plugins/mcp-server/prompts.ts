// The MCP prompts: agentd's prompt profiles, each the system prompt it composes (the
// global prompt, the tools prompt and the profile's sections), as a read of the public API.
// The transport is stateless (no session to notify), so `listChanged` is not announced: a
// client lists again to see an edit of the prompts file.
import { errorText, type CallApi } from './api.ts'

export class PromptError extends Error {
  readonly notFound: boolean
  constructor (message: string, notFound: boolean) { super(message); this.notFound = notFound }
}

interface Profile { id: string, name: string, description: string, is_default: boolean }

export async function promptList (api: CallApi): Promise<{ prompts: Array<{ name: string, title: string, description: string }> }> {
  const r = await api('GET', '/api/prompts/profiles')
  if (r.status !== 200) throw new PromptError(errorText(r), false)
  const profiles = (r.body as { profiles: Profile[] }).profiles
  return {
    prompts: profiles.map(p => ({
      name: p.id,
      title: p.name,
      description: `${p.description === '' ? `The "${p.name}" prompt profile` : p.description}: the system prompt it composes${p.is_default ? ' (the default profile)' : ''}.`,
    })),
  }
}

export async function getPrompt (name: string, api: CallApi): Promise<{ description: string, messages: Array<{ role: 'user', content: { type: 'text', text: string } }> }> {
  const r = await api('GET', `/api/prompts/profiles/${encodeURIComponent(name)}`)
  if (r.status === 404) throw new PromptError(`No prompt "${name}"; prompts/list names them (agentd's prompt profiles).`, true)
  if (r.status !== 200) throw new PromptError(errorText(r), false)
  const body = r.body as { profile: Profile, composed_prompt: string }
  // MCP prompts have no system role: the composed system prompt is the one message.
  return {
    description: `The system prompt of agentd's "${body.profile.name}" profile`,
    messages: [{ role: 'user', content: { type: 'text', text: body.composed_prompt } }],
  }
}
