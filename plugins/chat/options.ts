import { Type, type Static } from '@agentd/sdk/typebox'
import { toolLoopOptions } from '@agentd/sdk/kits/tools'


export const options = Type.Object({
  ...toolLoopOptions,
  /** Idle time after which a session is forgotten. */
  session_ttl_seconds: Type.Integer({ minimum: 1, default: 7 * 24 * 3600 }),
  /** In-process store only: most sessions kept (least recently used go first). */
  max_sessions: Type.Integer({ minimum: 1, default: 1000 }),
  /** Messages kept per session (older whole turns are dropped). */
  max_session_messages: Type.Integer({ minimum: 2, default: 200 }),
  /** SSE comment line (`: ping`) interval that keeps proxies from closing a quiet stream. */
  heartbeat_ms: Type.Integer({ minimum: 10, default: 15_000 }),
}, { additionalProperties: false })

export type ChatOptions = Static<typeof options>
