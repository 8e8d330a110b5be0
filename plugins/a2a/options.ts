import { Type, type Static } from '@agentd/sdk/typebox'
import { toolLoopOptions } from '@agentd/sdk/kits/tools'

// The chat knobs (A2A's chat skill runs the same turn as /api/agent/chat and /v1), where
// the JSON-RPC endpoint is, and how much of each context is kept.
export const options = Type.Object({
  ...toolLoopOptions,
  /** Where the JSON-RPC endpoint is served (the card's interface URL). */
  path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*$', default: '/a2a' }),
  /** The card's name and description. */
  name: Type.String({ minLength: 1, default: 'agentd' }),
  description: Type.String({ minLength: 1, default: 'A self-hosted agent with long-term memory, tools, reasoning strategies and translation.' }),
  /** Contexts (A2A conversations) kept in process; the least recently used go first. */
  max_contexts: Type.Integer({ minimum: 1, default: 1000 }),
  /** Messages kept per context (older whole turns are dropped). */
  max_context_messages: Type.Integer({ minimum: 2, default: 200 }),
  /** Tasks kept for tasks/get (finished ones; the oldest go first). */
  max_tasks: Type.Integer({ minimum: 1, default: 5000 }),
}, { additionalProperties: false })

export type A2AOptions = Static<typeof options>
