// The memory service's maintenance jobs, run by the jobs plugin (registry.jobs) on their
// schedule: `audit_partitions` keeps the audit log to its retention (it replaces the
// pruning timer this plugin used to run), `cleanup` drops expired working-memory keys and
// old tool invocations. Both work through the store contracts, so any backend serves.
import type { Job } from '@agentd/sdk/contracts/job'
import type { MemoryServiceImpl } from './service.ts'

export interface MaintenanceOptions {
  auditRetentionDays: number
  auditEverySeconds: number
  toolInvocationRetentionDays: number
  cleanupEverySeconds: number
}

export function maintenanceJobs (svc: MemoryServiceImpl, o: MaintenanceOptions): Job[] {
  return [
    {
      name: 'audit_partitions',
      description: `Removes audit-log entries older than ${o.auditRetentionDays} days (option audit_retention_days).`,
      schedule: { every_seconds: o.auditEverySeconds },
      run: async () => {
        const removed = await svc.need('relational').pruneAudit(o.auditRetentionDays)
        return { removed, items_processed: removed, retention_days: o.auditRetentionDays }
      },
    },
    {
      name: 'cleanup',
      description: `Drops expired working-memory keys and tool invocations older than ${o.toolInvocationRetentionDays} days (option tool_invocation_retention_days).`,
      schedule: { every_seconds: o.cleanupEverySeconds },
      run: async ({ signal }) => {
        // A store without the member (Redis expires keys itself) reports null: nothing to do there.
        const expired = await svc.kv?.sweep?.() ?? null
        signal.throwIfAborted()
        const rel = svc.relational
        const tools = rel?.pruneToolInvocations === undefined ? null : await rel.pruneToolInvocations(o.toolInvocationRetentionDays)
        return { working_memory_expired: expired, tool_invocations_removed: tools, items_processed: (expired ?? 0) + (tools ?? 0), tool_invocation_retention_days: o.toolInvocationRetentionDays }
      },
    },
  ]
}
