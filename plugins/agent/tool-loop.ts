// `ctx.toolLoop` for strategies: the tools kit's tool-use loop, fed by the run's own
// `complete` and `callTool`, so the iteration and time limits, accounting and the
// action/observation trace apply to every call the loop makes. The loop sees a provider
// whose every call is `complete` (the run picks the model for the role).
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { StrategyCompletion, StrategyContext, StrategyToolLoopOptions, StrategyToolLoopResult } from '@agentd/sdk/contracts/strategy'
import { DEFAULT_CAPABILITIES } from '@agentd/sdk/kits/provider'
import { runToolLoop, type ToolSet } from '@agentd/sdk/kits/tools'

type LoopParts = Pick<StrategyContext, 'complete' | 'callTool' | 'tools' | 'limits' | 'signal'>

/** A Provider whose calls are the run's `complete`; `last` is the latest call. */
function runProvider (ctx: LoopParts, role: StrategyToolLoopOptions['role'], last: { call?: StrategyCompletion }): Provider {
  const complete: Provider['complete'] = async ({ model: _model, ...req }) => {
    last.call = await ctx.complete(req, { trace: false, ...(role === undefined ? {} : { role }) })
    return last.call
  }
  return {
    id: 'agent-run',
    status: () => ({ status: 'configured' }),
    listModels: async () => [],
    capabilities: () => ({ ...DEFAULT_CAPABILITIES, supports_tools: true }),
    complete,
    stream: async function * (req, signal) {
      const r = await complete(req, signal)
      if (r.thinking !== undefined) yield { type: 'reasoning-delta', delta: r.thinking }
      yield { type: 'text-delta', delta: r.content }
      for (const call of r.tool_calls) yield { type: 'tool-call', call }
      yield { type: 'finish', finish_reason: r.finish_reason, usage: r.usage, model: r.model }
    },
    health: async () => ({ status: 'healthy' }),
  }
}

export function toolLoopFor (ctx: LoopParts): StrategyContext['toolLoop'] {
  return async (opts): Promise<StrategyToolLoopResult> => {
    const last: { call?: StrategyCompletion } = {}
    const tools: ToolSet = {
      definitions: [...ctx.tools],
      infos: ctx.tools.map(t => ({ ...t, server: 'agent' })),
      prompt: () => ctx.tools.map(t => `- ${t.name}: ${t.description}`).join('\n'),
      call: async (call) => await ctx.callTool(call),
    }
    let answer = ''
    let thinking = ''
    const result = await runToolLoop({
      provider: runProvider(ctx, opts.role, last),
      model: 'agent-run',
      messages: [...opts.messages],
      tools,
      maxToolRounds: ctx.limits.max_tool_rounds,
      stream: false,
      signal: ctx.signal,
      // callTool applies the run's per-call limit; this one only has to be no shorter.
      toolTimeoutMs: Math.max(1, ctx.limits.deadline - Date.now()),
      onEvent: (e) => {
        if (e.type === 'text') answer += e.text
        else if (e.type === 'thinking') thinking += e.text
        else if (e.type === 'round') {
          if (last.call !== undefined) opts.onRound?.({ round: e.round, answer, thinking, tool_calls: e.tool_calls, call: last.call })
          answer = ''
          thinking = ''
        }
      },
    })
    return { answer: result.answer, thinking: result.thinking, messages: result.messages, calls: result.provider_calls, tool_rounds: result.tool_rounds, hit_round_cap: result.hit_round_cap }
  }
}
