// Converts a tool result's content blocks into the text of a `tool` message: text as is,
// images and audio as a short description, embedded resources by their text (or a
// description of a blob), resource links by name and URI. Structured content is used
// when a server sends no content blocks. And the lists a server offers, page by page.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Tool, Resource, Prompt } from '@modelcontextprotocol/sdk/types.js'

type Block = Record<string, unknown> & { type?: unknown }

function size (b64: unknown): string {
  if (typeof b64 !== 'string') return 'unknown size'
  const bytes = Math.floor(b64.replace(/=+$/, '').length * 3 / 4)
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`
}

function str (v: unknown, dflt = ''): string { return typeof v === 'string' ? v : dflt }

export function blockToText (block: Block): string {
  switch (block.type) {
    case 'text': return str(block.text)
    case 'image': return `[image: ${str(block.mimeType, 'unknown type')}, ${size(block.data)}]`
    case 'audio': return `[audio: ${str(block.mimeType, 'unknown type')}, ${size(block.data)}]`
    case 'resource': {
      const r = (block.resource ?? {}) as Record<string, unknown>
      const uri = str(r.uri, 'unknown uri')
      if (typeof r.text === 'string') return `[resource ${uri}]\n${r.text}`
      return `[resource ${uri}: ${str(r.mimeType, 'binary')}, ${size(r.blob)}]`
    }
    case 'resource_link': return `[resource link: ${str(block.name, str(block.uri))} ${str(block.uri)}${typeof block.mimeType === 'string' ? ` (${block.mimeType})` : ''}]`
    default: return `[${str(block.type, 'unknown')} content]`
  }
}

export function resultToText (result: { content?: unknown, structuredContent?: unknown, toolResult?: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content as Block[] : []
  if (blocks.length > 0) return blocks.map(blockToText).join('\n')
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent)
  // Servers of protocol 2024-10-07 answer with `toolResult`.
  if (result.toolResult !== undefined) return typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult)
  return ''
}

const MAX_PAGES = 50

/** Every page of one list (at most MAX_PAGES, so a server that always sends a cursor cannot hold the connect forever). */
export async function listAll (client: Client, what: 'tools' | 'resources' | 'prompts', timeout: number): Promise<Array<Tool | Resource | Prompt>> {
  const all: Array<Tool | Resource | Prompt> = []
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = cursor === undefined ? {} : { cursor }
    if (what === 'tools') {
      const r = await client.listTools(params, { timeout })
      all.push(...r.tools)
      cursor = r.nextCursor
    } else if (what === 'resources') {
      const r = await client.listResources(params, { timeout })
      all.push(...r.resources)
      cursor = r.nextCursor
    } else {
      const r = await client.listPrompts(params, { timeout })
      all.push(...r.prompts)
      cursor = r.nextCursor
    }
    if (cursor === undefined) break
  }
  return all
}
