// The MCP tools: recall, remember, forget, list channels, run an agent task. Each is one
// call of the public API (api.ts); its answer becomes the tool's text (and, for the
// structuredContent, declared by its outputSchema, which MCP clients check it against). An
// API error is a tool result with isError, so the calling model reads why, as MCP intends
// for errors of the tool itself.
import { Type, type Static, type TSchema } from '@agentd/sdk/typebox'
import { check, formatErrors } from '@agentd/sdk'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { errorText, type CallApi } from './api.ts'

const CHANNEL = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'memory channel (default `_default`; `_global` is recalled from every channel)' })
const KIND = Type.Union([Type.Literal('fact'), Type.Literal('entity'), Type.Literal('goal'), Type.Literal('strategy')], { description: 'what the id names (default fact)' })

export type ToolResult = CallToolResult

/** MCP's tool annotations (hints for the client, e.g. to ask before a destructive call). */
interface Annotations { readOnlyHint: boolean, destructiveHint?: boolean, idempotentHint?: boolean, openWorldHint: boolean }

interface ToolDef<S extends TSchema> {
  name: string
  title: string
  description: string
  input: S
  /** What structuredContent holds on success (an object schema, as MCP requires). */
  output: TSchema
  annotations: Annotations
  run: (args: Static<S>, api: CallApi) => Promise<ToolResult>
  /** A long tool: progress is reported around it when the client asks (a progressToken). */
  long?: string
}

/** Sends MCP progress for the call (notifications/progress); a no-op when the client sent no progressToken. */
export type Progress = (progress: number, total: number, message: string) => Promise<void>

const text = (t: string, structured?: Record<string, unknown>): ToolResult => ({ content: [{ type: 'text', text: t }], ...(structured === undefined ? {} : { structuredContent: structured }) })
const failed = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }], isError: true })

const Recall = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000, description: 'what to remember about' }),
  channel: Type.Optional(CHANNEL),
  top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
}, { additionalProperties: false })

const Remember = Type.Object({
  fact: Type.String({ minLength: 1, maxLength: 10_000, description: 'the fact, as a sentence' }),
  channel: Type.Optional(CHANNEL),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
}, { additionalProperties: false })

const Forget = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'the id recall or remember gave' }), kind: Type.Optional(KIND) }, { additionalProperties: false })

const ListChannels = Type.Object({}, { additionalProperties: false })

const RunTask = Type.Object({
  task: Type.String({ minLength: 1, description: 'what the agent should do' }),
  reasoning_strategy: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'auto (default) or a registered strategy: cot, tot, react, reflection' })),
}, { additionalProperties: false })

type Row = Record<string, unknown>

const Id = Type.String({ description: 'the item\'s id' })
const RecallOut = Type.Object({
  facts: Type.Array(Type.Object({ id: Id, claim: Type.String(), channel: Type.String() })),
  entities: Type.Array(Type.Object({ id: Id, name: Type.String(), type: Type.String() })),
})
const RememberOut = Type.Object({ id: Id, created: Type.Boolean({ description: 'false: the same claim was stored already (this is its id)' }), channel: Type.String() })
const ForgetOut = Type.Object({ id: Id, kind: KIND, deleted: Type.Literal(true) })
const ChannelsOut = Type.Object({ channels: Type.Array(Type.Object({ name: Type.String(), item_counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 })) })) })
const TaskOut = Type.Object({ task_id: Type.Optional(Type.String()), status: Type.Optional(Type.String()), strategy: Type.Optional(Type.String()) })

const TOOLS = [
  {
    name: 'recall',
    title: 'Recall memories',
    description: 'Recall what agentd remembers about a query: facts, entities, past conversation turns, strategies and goals, rendered as text. Fact ids can be passed to forget.',
    input: Recall,
    output: RecallOut,
    annotations: { readOnlyHint: true, openWorldHint: false },
    long: 'recalling from memory',
    run: async (a, api) => {
      const r = await api('POST', '/api/memory/recall', { query: a.query, ...(a.channel === undefined ? {} : { channel: a.channel }), ...(a.top_k === undefined ? {} : { top_k: a.top_k }) })
      if (r.status !== 200) return failed(errorText(r))
      const b = r.body as { context: string, facts: Row[], entities: Row[] }
      const facts = b.facts.map(f => `- ${String(f.claim)} (fact ${String(f.id)})`)
      return text([b.context === '' ? 'Nothing is remembered about this.' : b.context, ...(facts.length > 0 ? ['', 'Facts:', ...facts] : [])].join('\n'),
        { facts: b.facts.map(f => ({ id: f.id, claim: f.claim, channel: f.channel })), entities: b.entities.map(e => ({ id: e.id, name: e.name, type: e.type })) })
    },
  } satisfies ToolDef<typeof Recall>,
  {
    name: 'remember',
    title: 'Remember a fact',
    description: 'Store a fact in agentd\'s memory (deduplicated: the same claim in the same channel is stored once).',
    input: Remember,
    output: RememberOut,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (a, api) => {
      const r = await api('POST', '/api/memory/facts', { claim: a.fact, ...(a.channel === undefined ? {} : { channel: a.channel }), ...(a.confidence === undefined ? {} : { confidence: a.confidence }) })
      if (r.status !== 200 && r.status !== 201) return failed(errorText(r))
      const b = r.body as { fact: Row, created: boolean }
      return text(`${b.created ? 'Remembered' : 'Already remembered'}: ${String(b.fact.claim)} (fact ${String(b.fact.id)}, channel ${String(b.fact.channel)})`, { id: b.fact.id, created: b.created, channel: b.fact.channel })
    },
  } satisfies ToolDef<typeof Remember>,
  {
    name: 'forget',
    title: 'Forget a memory',
    description: 'Delete one memory by id: a fact (default), an entity, a goal or a strategy. Recall stops returning it at once.',
    input: Forget,
    output: ForgetOut,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (a, api) => {
      const kind = a.kind ?? 'fact'
      const plural = kind === 'entity' ? 'entities' : kind === 'strategy' ? 'strategies' : `${kind}s`
      const r = await api('DELETE', `/api/memory/${plural}/${encodeURIComponent(a.id)}`)
      if (r.status !== 200) return failed(errorText(r))
      return text(`Forgot ${kind} ${a.id}.`, { id: a.id, kind, deleted: true })
    },
  } satisfies ToolDef<typeof Forget>,
  {
    name: 'list_channels',
    title: 'List memory channels',
    description: 'The memory channels with how many turns, facts, entities, strategies and goals each holds.',
    input: ListChannels,
    output: ChannelsOut,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async (_a, api) => {
      const r = await api('GET', '/api/memory/channels')
      if (r.status !== 200) return failed(errorText(r))
      const channels = (r.body as { channels: Row[] }).channels
      return text(channels.map(c => `${String(c.name)}: ${Object.entries(c.item_counts as Record<string, number>).map(([k, v]) => `${v} ${k}`).join(', ')}`).join('\n'), { channels })
    },
  } satisfies ToolDef<typeof ListChannels>,
  {
    name: 'run_agent_task',
    title: 'Run an agent task',
    description: 'Have agentd\'s agent plan and carry out a task with its reasoning strategies, tools and memory; returns its answer.',
    input: RunTask,
    output: TaskOut,
    // The agent may call any of its tools (web, files, other MCP servers).
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    long: 'running the agent task',
    run: async (a, api) => {
      const r = await api('POST', '/api/agent/run', { task: a.task, include_trace: false, ...(a.reasoning_strategy === undefined ? {} : { reasoning_strategy: a.reasoning_strategy }) })
      if (r.status === 404 && (r.body as { code?: string } | undefined)?.code === 'AGENT_ERR_NOT_FOUND') return failed('The agent plugin is not enabled on this server: enable "agent" in plugins.json.')
      if (r.status !== 200) return failed(errorText(r))
      const b = r.body as { answer?: string, status?: string, task_id?: string, strategy?: string }
      return text(b.answer ?? '', { task_id: b.task_id, status: b.status, strategy: b.strategy })
    },
  } satisfies ToolDef<typeof RunTask>,
]

const jsonSchema = (s: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(s)) as Record<string, unknown>

export const toolList = (): Array<{ name: string, title: string, description: string, inputSchema: Record<string, unknown>, outputSchema: Record<string, unknown>, annotations: Annotations }> =>
  TOOLS.map(t => ({ name: t.name, title: t.title, description: t.description, inputSchema: jsonSchema(t.input), outputSchema: jsonSchema(t.output), annotations: t.annotations }))

/** Runs a tool; an unknown tool or bad arguments answer as MCP protocol errors (thrown). */
export async function callTool (name: string, args: unknown, api: CallApi, progress?: Progress): Promise<ToolResult> {
  const tool = TOOLS.find(t => t.name === name)
  if (tool === undefined) throw new ToolInputError(`Unknown tool "${name}"; tools: ${TOOLS.map(t => t.name).join(', ')}.`)
  const c = check(tool.input, args ?? {})
  if (!c.ok) throw new ToolInputError(`Invalid arguments for ${name}: ${formatErrors(c.errors)}`)
  const run = tool.run as (a: unknown, api: CallApi) => Promise<ToolResult>
  const long = (tool as { long?: string }).long
  if (progress === undefined || long === undefined) return await run(c.value, api)
  // One API call each: progress says when it started and when it is done (the client's
  // timeout can reset on it, and a user sees that the tool works).
  await progress(0, 1, `${name}: ${long}`)
  const result = await run(c.value, api)
  await progress(1, 1, `${name}: done`)
  return result
}

export class ToolInputError extends Error {}
