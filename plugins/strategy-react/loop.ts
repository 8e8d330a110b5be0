// ReAct: reason, act with a tool, observe, repeat, until the model answers without a tool
// call or `max_tool_rounds` rounds of tool calls have run. Models with native tool calling
// get the tools as `tools`; others get a text protocol (Action / Action Input lines) that
// is parsed here. Every turn's reasoning is a `thought` trace entry; ctx.callTool adds the
// `action` and `observation` entries.
import type { StrategyContext, StrategyResult } from '../../core/contracts/strategy.ts'
import type { Message, ToolCall, ToolDefinition } from '../../core/contracts/provider.ts'
import { parseJsonLoose, splitThinking } from '../agent/text.ts'

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

export async function react (ctx: StrategyContext): Promise<StrategyResult> {
  const native = ctx.capabilities('step').supports_tools
  const extra = ctx.tools.length === 0 ? '' : native ? REACT_INSTRUCTION : `${REACT_INSTRUCTION}\n\n${textProtocol(ctx.tools)}`
  const [system, ...rest] = ctx.messages
  const messages: Message[] = system?.role === 'system'
    ? [{ ...system, content: `${system.content}\n\n${extra}`.trim() }, ...rest]
    : [{ role: 'system', content: extra }, ...ctx.messages]
  if (ctx.tools.length === 0) ctx.trace({ type: 'note', content: 'no tools are available to this run; answering without acting' })

  let rounds = 0
  for (;;) {
    const lastChance = rounds >= ctx.limits.max_tool_rounds
    if (lastChance) messages.push({ role: 'user', content: `The tool-round limit (${ctx.limits.max_tool_rounds}) is reached. Give your final answer now from the observations you have.` })
    const r = await ctx.complete({ messages, ...(native && !lastChance && ctx.tools.length > 0 ? { tools: [...ctx.tools] } : {}) }, { trace: false })
    const { answer, thinking } = splitThinking(r.content, r.thinking)
    let calls = lastChance ? [] : r.tool_calls
    if (calls.length === 0 && !native && !lastChance) {
      const action = parseTextAction(answer, ctx.tools, `text_${rounds}`)
      if (action !== undefined) calls = [action]
    }
    const thought = thoughtOf(answer, thinking)
    if (calls.length === 0) {
      const parts = answer.split(/Final Answer:/i)
      const final = (parts.length > 1 ? parts.at(-1) ?? '' : answer).trim()
      const lastThought = parts.length > 1 ? thoughtOf(parts[0], thinking) : thinking
      if (lastThought !== '') ctx.trace({ type: 'thought', content: lastThought })
      ctx.trace({ type: 'answer', content: final, model: r.model_id, tokens: r.usage.total_tokens, time_ms: r.time_ms })
      return { answer: final, thinking, reasoning_steps: rounds + 1 }
    }
    ctx.trace({ type: 'thought', content: thought === '' ? `(no stated reason) calling ${calls.map(c => c.name).join(', ')}` : thought, model: r.model_id, tokens: r.usage.total_tokens, time_ms: r.time_ms, round: rounds + 1 })
    ctx.progress(thought)
    if (native) {
      messages.push({ role: 'assistant', content: r.content, tool_calls: calls })
      for (const call of calls) {
        const result = await ctx.callTool(call)
        messages.push({ role: 'tool', name: call.name, tool_call_id: call.id, content: result.content })
      }
    } else {
      messages.push({ role: 'assistant', content: r.content })
      const result = await ctx.callTool(calls[0])
      messages.push({ role: 'user', content: `Observation: ${result.isError ? `error: ${result.content}` : result.content}` })
    }
    rounds++
  }
}
