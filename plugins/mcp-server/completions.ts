// MCP completions (completion/complete): what a client can offer while a user fills in an
// argument. agentd's prompts (the prompt profiles) take no arguments, so a prompt's
// argument completes to nothing; of the resource templates, a channel's `{name}` completes
// to the channel names that start with what was typed (GET /api/memory/channels). Ids
// (`{id}`) are not completed: there are too many to offer and nothing to match them by.
import { ROOT } from './resources.ts'
import type { CompleteResult } from '@modelcontextprotocol/sdk/types.js'
import type { CallApi } from './api.ts'

export interface CompleteParams {
  ref: { type: string, name?: string, uri?: string }
  argument: { name: string, value: string }
}

export type Completion = CompleteResult

/** MCP caps one answer at 100 values. */
const MAX = 100

export async function complete (p: CompleteParams, api: CallApi): Promise<Completion> {
  const none: Completion = { completion: { values: [], total: 0, hasMore: false } }
  if (p.ref.type !== 'ref/resource' || p.ref.uri !== `${ROOT}/channels/{name}/facts` || p.argument.name !== 'name') return none
  const r = await api('GET', '/api/memory/channels')
  if (r.status !== 200) return none
  const names = (r.body as { channels: Array<{ name: string }> }).channels.map(c => c.name).filter(n => n.startsWith(p.argument.value)).sort()
  return { completion: { values: names.slice(0, MAX), total: names.length, hasMore: names.length > MAX } }
}
