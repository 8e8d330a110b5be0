// Channel names and the special channels. `_global` is merged into every recall and
// cannot be deleted; `_default` is where memory goes when no channel is named.
import { MemoryErrors } from './errors.ts'

export const GLOBAL = '_global'
export const DEFAULT = '_default'
export const CHANNEL_PATTERN = '^[A-Za-z0-9_-]{1,64}$'
const RE = new RegExp(CHANNEL_PATTERN)

export function checkChannel (name: string): string {
  if (!RE.test(name)) throw new MemoryErrors.BAD_REQUEST(`Channel name "${name.slice(0, 80)}${name.length > 80 ? '…' : ''}" is invalid: use 1-64 letters, digits, hyphens or underscores.`)
  return name
}

/** The channels a recall reads: the active one and `_global`. */
export const recallChannels = (channel: string): string[] => channel === GLOBAL ? [GLOBAL] : [channel, GLOBAL]
