// A provider's stored key goes only to the base URL it was set with. An update that moves
// `base_url` without giving `api_key` in the same update clears the stored key, so that
// whoever may change the address (a script, a page that got past the browser checks)
// cannot have the key sent to an address of their choosing. The environment's key is
// held back by the provider kit itself (resolveSettings) whenever base_url is not the
// environment's own.
import type { ConfigView } from '@agentd/sdk'
import { sameAddress } from '@agentd/sdk/kits/provider'
import { isPlainObject } from './plain.ts'


/**
 * The patch with `api_key` removed (set to undefined: dropped when written) for every
 * provider whose base_url changes without a key beside it, and the dotted keys cleared.
 */
export function clearKeysOnMove (patch: Record<string, unknown>, config: ConfigView): { patch: Record<string, unknown>, cleared: string[] } {
  const providers = patch.providers
  if (!isPlainObject(providers)) return { patch, cleared: [] }
  const cleared: string[] = []
  const out: Record<string, unknown> = { ...providers }
  for (const [id, section] of Object.entries(providers)) {
    if (!isPlainObject(section) || !Object.hasOwn(section, 'base_url') || Object.hasOwn(section, 'api_key')) continue
    if (sameAddress(section.base_url, config.fromFile(`providers.${id}.base_url`))) continue
    const stored = config.fromFile(`providers.${id}.api_key`)
    if (typeof stored !== 'string' || stored === '') continue
    out[id] = { ...section, api_key: undefined }
    cleared.push(`providers.${id}.api_key`)
  }
  return { patch: cleared.length === 0 ? patch : { ...patch, providers: out }, cleared }
}
