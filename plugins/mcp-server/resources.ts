// The MCP resources: the memory channels, entities and facts as JSON, each a read of the
// public API. Lists give the newest page (100); one entity or fact by id through the
// templates.
import { errorText, type CallApi } from './api.ts'

const JSON_TYPE = 'application/json'
export const ROOT = 'agentd://memory'

export const resourceList = (): Array<{ uri: string, name: string, title: string, description: string, mimeType: string }> => [
  { uri: `${ROOT}/channels`, name: 'channels', title: 'Memory channels', description: 'Every memory channel with its item counts', mimeType: JSON_TYPE },
  { uri: `${ROOT}/entities`, name: 'entities', title: 'Entities', description: 'Entities in memory (first 100, every channel)', mimeType: JSON_TYPE },
  { uri: `${ROOT}/facts`, name: 'facts', title: 'Facts', description: 'Current facts in memory (first 100, every channel)', mimeType: JSON_TYPE },
]

export const resourceTemplates = (): Array<{ uriTemplate: string, name: string, title: string, description: string, mimeType: string }> => [
  { uriTemplate: `${ROOT}/facts/{id}`, name: 'fact', title: 'A fact', description: 'One fact by id', mimeType: JSON_TYPE },
  { uriTemplate: `${ROOT}/entities/{id}`, name: 'entity', title: 'An entity', description: 'One entity by id', mimeType: JSON_TYPE },
  { uriTemplate: `${ROOT}/channels/{name}/facts`, name: 'channel-facts', title: 'Facts of a channel', description: 'Current facts of one channel (first 100)', mimeType: JSON_TYPE },
]

/** The API path a resource URI reads, or undefined for a URI this server does not have. */
export function resourcePath (uri: string): string | undefined {
  if (!uri.startsWith(`${ROOT}/`)) return undefined
  const rest = uri.slice(ROOT.length + 1).split('/').map(decodeURIComponent)
  const enc = encodeURIComponent
  if (rest.length === 1 && rest[0] === 'channels') return '/api/memory/channels'
  if (rest.length === 1 && (rest[0] === 'entities' || rest[0] === 'facts')) return `/api/memory/${rest[0]}?limit=100`
  if (rest.length === 2 && (rest[0] === 'entities' || rest[0] === 'facts') && rest[1] !== '') return `/api/memory/${rest[0]}/${enc(rest[1])}`
  if (rest.length === 3 && rest[0] === 'channels' && rest[2] === 'facts') return `/api/memory/facts?limit=100&channel=${enc(rest[1])}`
  return undefined
}

export class ResourceError extends Error {
  readonly notFound: boolean
  constructor (message: string, notFound: boolean) { super(message); this.notFound = notFound }
}

export async function readResource (uri: string, api: CallApi): Promise<{ contents: Array<{ uri: string, mimeType: string, text: string }> }> {
  const p = resourcePath(uri)
  if (p === undefined) throw new ResourceError(`No resource "${uri}"; resources: ${resourceList().map(r => r.uri).join(', ')} and the templates ${resourceTemplates().map(r => r.uriTemplate).join(', ')}.`, true)
  const r = await api('GET', p)
  if (r.status !== 200) throw new ResourceError(errorText(r), r.status === 404)
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(r.body, null, 2) }] }
}
