// Channel names and the special channels. `_global` is merged into every recall and
// cannot be deleted; `_default` is where memory goes when no channel is named. The name
// rule itself is the contract's (core/contracts/memory.ts), shared with chat and agent.
import { CHANNEL_ALL, CHANNEL_MAX_LENGTH, CHANNEL_PATTERN, isChannelName } from '@agentd/sdk/kits/memory'
import { MemoryErrors } from './errors.ts'

export { CHANNEL_ALL, CHANNEL_MAX_LENGTH, CHANNEL_PATTERN }
export const GLOBAL = '_global'
export const DEFAULT = '_default'

export function checkChannel (name: string): string {
  if (name === CHANNEL_ALL) throw new MemoryErrors.BAD_REQUEST(`"${CHANNEL_ALL}" is reserved (it means every channel in list filters): pick another channel name.`)
  if (!isChannelName(name)) throw new MemoryErrors.BAD_REQUEST(`Channel name "${name.slice(0, 80)}${name.length > 80 ? '…' : ''}" is invalid: use 1-${CHANNEL_MAX_LENGTH} letters, digits, hyphens or underscores.`)
  return name
}

/** The channels a recall reads: the active one and `_global`. */
export const recallChannels = (channel: string): string[] => channel === GLOBAL ? [GLOBAL] : [channel, GLOBAL]
