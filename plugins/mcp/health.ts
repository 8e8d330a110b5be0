// The `mcp` section of GET /api/health: each server's status. `degraded` (which makes the
// whole answer degraded) when a server that should be connected is in `error`, or an
// entry of mcp_servers.json is invalid; servers disconnected on purpose and disabled
// entries (`enabled: false`) do not count.
import type { HealthContributor, HealthSection } from '@agentd/sdk/contracts/health'
import type { McpManager } from './manager.ts'

export function mcpHealth (manager: McpManager): HealthContributor {
  return {
    section: 'mcp',
    check: async (): Promise<HealthSection> => {
      const servers = Object.fromEntries(manager.servers().map(c => [c.name, c.error === undefined ? { status: c.status } : { status: c.status, error: c.error }]))
      const failing = manager.servers().some(c => c.enabled && c.status === 'error' && (c.desired || c.entry.error !== undefined))
      return { status: failing ? 'degraded' : 'healthy', servers }
    },
  }
}
