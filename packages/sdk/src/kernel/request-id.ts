// A request's id: the caller's X-Request-Id when it is well-formed (a load balancer or a
// client that already names its requests keeps its name across the hop), else a random
// UUID, unique across a cluster (a per-process counter repeats). Returned in X-Request-Id,
// bound on every log line of the request and written in error bodies (`request_id`).
import { randomUUID } from 'node:crypto'

/** Letters, digits and `._:-`, up to 128 characters: a UUID, a trace id, a ULID; nothing that could forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/

export function requestId (incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && WELL_FORMED.test(incoming) ? incoming : randomUUID()
}
