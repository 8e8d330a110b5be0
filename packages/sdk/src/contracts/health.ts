// A health contributor answers for one section of GET /api/health (e.g. `translation`,
// `memory`). The section's `status` decides the aggregate: `unhealthy`, `error` or `degraded` makes
// the whole answer `degraded`.

export interface HealthSection {
  status: string
  [key: string]: unknown
}

export interface HealthContributor {
  /** The key under which the section appears in /api/health. */
  readonly section: string
  /** Only reported when the caller asks for it (e.g. `memory` needs include_memory=true). */
  readonly optIn?: string
  check: (signal?: AbortSignal) => Promise<HealthSection>
}

declare module '../kernel/registry.ts' {
  interface Capabilities { healthContributors: HealthContributor }
}
