// ReAct: reason, act with a tool, observe, repeat, until the model answers without a tool
// call or `max_tool_rounds` rounds of tool calls have run. Models with native tool calling
// run through the agent's tool-use loop (ctx.toolLoop: model calls through ctx.complete,
// tools through ctx.callTool, so the run's limits and accounting apply); others get a text protocol
// (Action / Action Input lines) parsed here. Every turn's reasoning is a `thought` trace
// entry; ctx.callTool adds the `action` and `observation` entries.
import type { StrategyContext, StrategyResult } from '@agentd/sdk/contracts/strategy'
import type { Message, ToolCall, ToolDefinition } from '@agentd/sdk/contracts/provider'
import { parseJsonLoose, splitThinking } from '@agentd/sdk/kits/output'

export const REACT_INSTRUCTION = 'Work in a loop of Thought, Action, Observation. Before every tool call, write one short line starting with "Thought:" that says why. ' +
  'Use the tools for anything you cannot know or compute exactly yourself. When you have enough, reply without a tool call, starting with "Final Answer:".'

function textProtocol (tools: readonly ToolDefinition[]): string {
  const list = tools.map(t => `- ${t.name}: ${t.description} Arguments (JSON Schema): ${JSON.stringify(t.input_schema)}`).join('\n')
  return `You can use these tools:\n${list}\n\nTo use one, reply exactly:\nThought: <why>\nAction: <tool name>\nAction Input: <JSON arguments>\nThen stop and wait for the Observation.`
}

/** Finds a text-protocol action ("Action: name" + "Action Input: {...}") for a known tool. */
export function parseTextAction (text: string, tools: readonly ToolDefinition[], id: string): ToolCall | undefined {
  const m = /Action:\s*`?([A-Za-z0-9_.:-]+)`?\s*(?:\r?\n|$)(?:\s*Action Input:\s*([\s\S]*))?/i.exec(text)
  if (m === null || !tools.some(t => t.name === m[1])) return undefined
  const args = m[2] === undefined ? {} : parseJsonLoose(m[2].split(/\n\s*Observation:/i)[0])
  return { id, name: m[1], arguments: args !== null && typeof args === 'object' && !Array.isArray(args) ? args as Record<string, unknown> : {} }
}

const stripLabel = (s: string, label: string): string => s.replace(new RegExp(`^\\s*${label}:\\s*`, 'i'), '').trim()

/** The text before the first Action line, without a "Thought:" label. */
function thoughtOf (content: string, thinking: string): string {
  const before = content.split(/\n?\s*(Action:|Final Answer:)/i)[0]
  return [thinking, stripLabel(before, 'Thought')].filter(s => s !== '').join('\n')
}

function withInstruction (ctx: StrategyContext, extra: string): Message[] {
  const [system, ...rest] = ctx.messages
  return system?.role === 'system'
    ? [{ ...system, content: `${system.content}\n\n${extra}`.trim() }, ...rest]
    : [{ role: 'system', content: extra }, ...ctx.messages]
}

/** "Thought: x\nFinal Answer: y" -> the answer and the thought before it. */
function finalParts (answer: string, thinking: string): { final: string, thought: string } {
  const parts = answer.split(/Final Answer:/i)
  const final = (parts.length > 1 ? parts.at(-1) ?? '' : answer).trim()
  const thought = parts.length > 1 ? thoughtOf(parts[0], thinking) : thinking
  return { final, thought }
}

async function reactNative (ctx: StrategyContext): Promise<StrategyResult> {
  const result = await ctx.toolLoop({
    messages: withInstruction(ctx, REACT_INSTRUCTION),
    onRound: ({ round, answer, thinking, tool_calls: calls, call }) => {
      const traced = { model: call.model_id, tokens: call.usage.total_tokens, time_ms: call.time_ms }
      if (calls > 0) {
        const thought = thoughtOf(answer, thinking)
        ctx.trace({ type: 'thought', content: thought === '' ? '(no stated reason)' : thought, round: round + 1, ...traced })
        ctx.progress(thought)
      } else {
        const { final, thought } = finalParts(answer, thinking)
        if (thought !== '') ctx.trace({ type: 'thought', content: thought, round: round + 1 })
        ctx.trace({ type: 'answer', content: final, ...traced })
      }
    },
  })
  if (result.hit_round_cap) ctx.trace({ type: 'note', content: `stopped offering tools at max_tool_rounds (${ctx.limits.max_tool_rounds})` })
  return { answer: finalParts(result.answer, '').final, thinking: result.thinking, reasoning_steps: result.calls }
}

async function reactText (ctx: StrategyContext): Promise<StrategyResult> {
  const messages = withInstruction(ctx, `${REACT_INSTRUCTION}\n\n${textProtocol(ctx.tools)}`)
  const thinkings: string[] = []
  for (let rounds = 0; ; rounds++) {
    const lastChance = rounds >= ctx.limits.max_tool_rounds
    if (lastChance) messages.push({ role: 'user', content: `The tool-round limit (${ctx.limits.max_tool_rounds}) is reached. Give your final answer now from the observations you have.` })
    const r = await ctx.complete({ messages }, { trace: false })
    const { answer, thinking } = splitThinking(r.content, r.thinking)
    if (thinking !== '') thinkings.push(thinking)
    const call = lastChance ? undefined : parseTextAction(answer, ctx.tools, `text_${rounds}`)
    if (call === undefined) {
      const { final, thought } = finalParts(answer, thinking)
      if (thought !== '') ctx.trace({ type: 'thought', content: thought, round: rounds + 1 })
      ctx.trace({ type: 'answer', content: final, model: r.model_id, tokens: r.usage.total_tokens, time_ms: r.time_ms })
      return { answer: final, thinking: thinkings.join('\n\n'), reasoning_steps: rounds + 1 }
    }
    const thought = thoughtOf(answer, thinking)
    ctx.trace({ type: 'thought', content: thought === '' ? '(no stated reason)' : thought, round: rounds + 1, model: r.model_id, tokens: r.usage.total_tokens, time_ms: r.time_ms })
    ctx.progress(thought)
    messages.push({ role: 'assistant', content: r.content })
    const result = await ctx.callTool(call)
    messages.push({ role: 'user', content: `Observation: ${result.isError ? `error: ${result.content}` : result.content}` })
  }
}

export async function react (ctx: StrategyContext): Promise<StrategyResult> {
  if (ctx.tools.length === 0) {
    ctx.trace({ type: 'note', content: 'no tools are available to this run; answering without acting' })
    const r = await ctx.complete({ messages: [...ctx.messages] }, { trace: { type: 'answer' } })
    const { answer, thinking } = splitThinking(r.content, r.thinking)
    return { answer, thinking, reasoning_steps: 1 }
  }
  return ctx.capabilities('step').supports_tools ? await reactNative(ctx) : await reactText(ctx)
}
