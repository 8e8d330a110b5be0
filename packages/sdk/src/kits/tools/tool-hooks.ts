// One tool call with the `tool:before` hook (may replace the arguments) and `tool:after`
// (may replace the result; gets who the call belongs to and how long the tool took), the
// way chat and agent runs call tools.
import type { ToolCall } from '../../contracts/provider.ts'
import type { ToolAfterPayload, ToolResult } from '../../contracts/tool-source.ts'
import type { Hooks } from '../../kernel/hooks.ts'

export type ToolCallContext = Pick<ToolAfterPayload, 'conversation_id' | 'channel' | 'use_memory'>

export async function toolCallWithHooks (hooks: Hooks, call: ToolCall, run: (call: ToolCall) => Promise<ToolResult>, ctx: ToolCallContext): Promise<ToolResult> {
  const args = (await hooks.run('tool:before', { tool: call.name, arguments: call.arguments })).arguments
  const t0 = performance.now()
  const result = await run({ ...call, arguments: args })
  const payload: ToolAfterPayload = { tool: call.name, arguments: args, result, ...ctx, duration_ms: Math.round((performance.now() - t0) * 100) / 100 }
  return (await hooks.run('tool:after', payload)).result
}
