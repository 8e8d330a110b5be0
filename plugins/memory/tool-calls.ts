// Procedural memory from the `tool:after` hook. The payload (ToolAfterPayload, filled by
// chat and agent) says which conversation and channel the call belongs to and whether
// the request uses memory; it is read defensively, since any plugin may run the hook.
import type { FastifyBaseLogger } from 'fastify'
import { isChannelName } from '@agentd/sdk/kits/memory'
import type { MemoryServiceImpl } from './service.ts'
import { DEFAULT } from './channels.ts'

export function recordToolCall (svc: MemoryServiceImpl, log: FastifyBaseLogger, payload: unknown): void {
  const p = (payload ?? {}) as Record<string, unknown>
  if (p.use_memory === false) return
  if (typeof p.tool !== 'string') return
  const channel = typeof p.channel === 'string' ? p.channel : DEFAULT
  if (!isChannelName(channel)) { log.debug({ channel: channel.slice(0, 80) }, 'memory: a tool call with an invalid channel was not recorded'); return }
  const res = (p.result ?? null) as { content?: unknown, isError?: unknown } | null
  const text = typeof res?.content === 'string' ? res.content : JSON.stringify(res)
  const args = p.arguments !== null && typeof p.arguments === 'object' && !Array.isArray(p.arguments) ? p.arguments as Record<string, unknown> : {}
  void svc.procedural.recordToolInvocation({
    conversation_id: typeof p.conversation_id === 'string' && p.conversation_id !== '' ? p.conversation_id : null,
    tool: p.tool, arguments: args, result: text.slice(0, 10_000), is_error: res?.isError === true,
    duration_ms: typeof p.duration_ms === 'number' && Number.isFinite(p.duration_ms) ? p.duration_ms : null, channel,
  }).catch((err: unknown) => { log.debug({ err: (err as Error).message, tool: p.tool }, 'memory: a tool call was not recorded') })
}
