// The chat's tool set keeps the first source's tool on a name clash (sources in
// registration order), so an MCP tool named like a tool of a source registered earlier
// (the builtin `calculate`, say) is never offered to the model. This finds those tools,
// for GET /api/mcp/tools (`shadowed_by`) and a warning in the log.
import type { FastifyBaseLogger } from 'fastify'
import type { ToolSource } from '@agentd/sdk/contracts/tool-source'
import type { McpManager, ToolView } from './manager.ts'

/** Model-facing MCP tool name -> id of the earlier source that wins it. */
export async function findShadowed (sources: Array<[string, ToolSource]>, own: string, views: ToolView[]): Promise<Map<string, string>> {
  const at = sources.findIndex(([id]) => id === own)
  const earlier = at < 0 ? [] : sources.slice(0, at)
  const taken = new Map<string, string>()
  for (const [id, source] of earlier) {
    let tools
    try { tools = await source.listTools() } catch { continue } // the chat skips a source that fails to list, too
    for (const info of tools) {
      // The chat offers only available tools, so only those take a name.
      if ((info.status === undefined || info.status === 'available') && !taken.has(info.name)) taken.set(info.name, id)
    }
  }
  const shadowed = new Map<string, string>()
  for (const v of views) {
    const by = taken.get(v.name)
    if (by !== undefined) shadowed.set(v.name, by)
  }
  return shadowed
}

/**
 * While a generation is active: re-checks after the MCP tools change (coalesced) and warns
 * once per shadowed tool and winning source.
 */
export function watchShadowing (manager: McpManager, sources: () => Array<[string, ToolSource]>, own: string, log: FastifyBaseLogger): { start: () => void, stop: () => void } {
  const warned = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let unsubscribe: (() => void) | undefined
  const check = async (): Promise<void> => {
    const views = manager.toolViews()
    const shadowed = await findShadowed(sources(), own, views)
    for (const [name, by] of shadowed) {
      const key = `${name}\0${by}`
      if (warned.has(key)) continue
      warned.add(key)
      const server = views.find(v => v.name === name)?.server
      log.warn({ tool: name, mcp_server: server, shadowed_by: by },
        `MCP tool "${name}" of server "${server ?? '?'}" is shadowed by tool source "${by}" (same name; the chat offers the first source's tool); rename or remove one of them`)
    }
  }
  const schedule = (): void => {
    if (timer !== undefined) return
    timer = setTimeout(() => { timer = undefined; void check().catch(() => undefined) }, 50)
    timer.unref()
  }
  return {
    start: () => { unsubscribe ??= manager.onChange(schedule); schedule() },
    stop: () => { unsubscribe?.(); unsubscribe = undefined; clearTimeout(timer); timer = undefined },
  }
}
