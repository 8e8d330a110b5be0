// A health contributor answers for one section of GET /api/health (e.g. `translation`,
// `memory`). The section's `status` decides the aggregate: any of UNHEALTHY_STATES makes
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

export const UNHEALTHY_STATES: readonly string[] = ['unhealthy', 'error', 'degraded']
