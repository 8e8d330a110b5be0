// One conversation turn with a model, whatever protocol asked for it: recall -> tools ->
// compose -> budget -> tool loop -> turns to store. `/api/agent/chat`, its stream and
// `/v1/chat/completions` are adapters that map their wire format onto a
// ConversationRequest and the result back; a later protocol (A2A) is one more adapter.
//
// Each stage runs through the request's middleware (`(stage, next) => ...`, the provider
// middleware's idea one level up), so tracing or metrics attach once, around every
// protocol's turns.
import type { FastifyInstance } from 'fastify'
import type { CompletionRequest, Message, Provider, ToolDefinition } from '../../contracts/provider.ts'
import type { PromptComposer } from '../../contracts/prompts.ts'
import { createError } from '../../kernel/errors.ts'
import type { TraceContext } from '../../kernel/telemetry.ts'
import { collectToolSet, runToolLoop, type LoopEvent, type ToolFilter, type ToolLoopResult, type ToolSet } from '../tools/index.ts'
import { fitToBudget, promptBudget } from './trim.ts'
import type { ChatMemory, TurnToStore } from './turn-memory.ts'

export const NoPromptComposer = createError<[string]>('AGENT_ERR_NO_PROMPTS', '%s needs the prompts plugin (it composes the system prompt); enable it in plugins.json.', 503)

/** The registered prompt composer (the prompts plugin's). */
export function promptComposer (scope: Pick<FastifyInstance, 'registry'>, who: string): PromptComposer {
  const composer = scope.registry.promptComposers.first()
  if (composer === undefined) throw new NoPromptComposer(who)
  return composer
}

export type ConversationStage = 'recall' | 'tools' | 'compose' | 'loop'
export type ConversationMiddleware = (stage: ConversationStage, request: ConversationRequest, next: () => Promise<void>) => Promise<void>

export interface ConversationRequest {
  /** Wrapped in the provider middleware (the model resolver's). */
  provider: Provider
  /** The model as the provider knows it. */
  model: string
  /** What came before the newest turn: a session's messages, a client's earlier messages. May be trimmed to fit. */
  history: Message[]
  /** The newest turn (the user's message, and tool results a client sent after it): never trimmed. */
  current: Message[]
  conversation_id: string
  channel?: string
  use_memory: boolean
  /** The text memory is recalled for ('' = no recall). */
  recallText: string
  /** The user's words to store as a turn ('' = none); `first`: stored (awaited) before recall, else after the answer. */
  userTurn: { content: string, first: boolean }
  /** Stored as the assistant turn's metadata beside model, provider and tools used. */
  answerMetadata?: (loop: ToolLoopResult) => Record<string, unknown>
  /** An empty answer is still stored as a turn (a chat session keeps it; /v1 does not). */
  storeEmptyAnswer: boolean
  profile_id?: string
  additional_context?: string
  system_override?: string
  /** agentd's tools are offered when this is true and the model supports tools. */
  offerTools: boolean
  toolFilter: ToolFilter
  /** Tools the client runs itself (/v1): offered, their calls returned. */
  clientTools?: ToolDefinition[]
  /** The first model call must call a tool (`required`) or this one (by name); a named tool not on offer is a 400. */
  toolChoice?: CompletionRequest['tool_choice']
  maxToolRounds: number
  toolTimeoutMs: number
  settings: Omit<CompletionRequest, 'model' | 'messages' | 'tools' | 'tool_choice'>
  stream: boolean
  signal?: AbortSignal
  /** The caller's trace context (its HTTP request's, `requestTrace`): the parent of recall's, the model calls' and the tool calls' spans. */
  trace?: TraceContext
  onEvent?: (e: LoopEvent) => void | Promise<void>
}

export interface ConversationDeps {
  app: FastifyInstance
  memory: ChatMemory
  /** Names the caller in errors ("The chat plugin"). */
  who: string
  middleware?: readonly ConversationMiddleware[]
}

export interface ConversationResult {
  loop: ToolLoopResult
  /** Turns for memory, stored by the caller off the request path. */
  memoryTurns: TurnToStore[]
}

interface State { memoryContext: string, tools: ToolSet | undefined, head: Message[], loop?: ToolLoopResult }

/** What the user and the model said in these messages, in order (tool calls and results, system text left out): what memory stores as turns. */
function said (messages: readonly Message[]): string[] {
  const out: string[] = []
  for (const m of messages) if ((m.role === 'user' || m.role === 'assistant') && m.content !== '') out.push(m.content)
  return out
}

const narrows = (f: ToolFilter): boolean => (f.allowed !== null && f.allowed !== undefined) || (f.blocked?.length ?? 0) > 0

export async function runConversation (deps: ConversationDeps, req: ConversationRequest): Promise<ConversationResult> {
  const { app, memory } = deps
  const remember = req.use_memory && memory.available
  const memoryTurns: TurnToStore[] = []
  const state: State = { memoryContext: '', tools: undefined, head: [] }
  const composer = promptComposer(app, deps.who)
  const caps = req.provider.capabilities(req.model)

  const stages: Array<[ConversationStage, () => Promise<void>]> = [
    ['recall', async () => {
      if (!remember) return
      // The conversation as this request holds it: memory reads no copy of it (for a new
      // turn's context or for what recall leaves out).
      const earlier = said(req.history)
      if (req.userTurn.content !== '') {
        const user: TurnToStore = { role: 'user', content: req.userTurn.content, earlier }
        if (req.userTurn.first) await memory.store(req.conversation_id, req.channel, user)
        else memoryTurns.push(user)
      }
      if (req.recallText !== '') state.memoryContext = await memory.recall(req.conversation_id, req.channel, req.recallText, [...earlier, ...said(req.current)], req.trace)
    }],
    ['tools', async () => {
      if (!req.offerTools || !caps.supports_tools) return
      state.tools = await collectToolSet(app.registry.toolSources.entries(), req.toolFilter, (source, err) => { app.log.warn({ err, source }, 'tool source failed to list its tools') })
    }],
    ['compose', async () => {
      const { system_prompt: system } = await composer.compose({
        profile_id: req.profile_id,
        // No tools on offer: say none. Narrowed: describe only what is offered. Else every source's own text.
        tools_prompt: state.tools === undefined ? '' : narrows(req.toolFilter) ? state.tools.prompt() : undefined,
        additional_context: req.additional_context,
        system_override: req.system_override,
        memory_context: state.memoryContext,
      })
      state.head = system === '' ? [] : [{ role: 'system', content: system }]
    }],
    ['loop', async () => {
      checkToolChoice(req, state.tools)
      const budget = promptBudget(caps, [...(state.tools?.definitions ?? []), ...(req.clientTools ?? [])])
      const pinnedHead = state.head.length
      const pinnedFrom = pinnedHead + req.history.length
      state.loop = await runToolLoop({
        provider: req.provider,
        model: req.model,
        messages: [...state.head, ...req.history, ...req.current],
        tools: state.tools,
        clientTools: req.clientTools,
        maxToolRounds: req.maxToolRounds,
        stream: req.stream,
        signal: req.signal,
        trace: req.trace,
        toolTimeoutMs: req.toolTimeoutMs,
        settings: req.settings,
        fit: (all) => fitToBudget(all, { pinnedHead, pinnedFrom, budget }).messages,
        hooks: app.hooks,
        toolContext: { conversation_id: req.conversation_id, channel: req.channel ?? null, use_memory: req.use_memory },
        onEvent: req.onEvent,
        toolChoice: req.toolChoice,
      })
    }],
  ]
  for (const [stage, run] of stages) await through(deps.middleware ?? [], stage, req, run)

  const loop = state.loop as ToolLoopResult
  if (remember && (req.storeEmptyAnswer || loop.answer !== '')) {
    const earlier = [...said(req.history), ...(req.userTurn.content === '' ? said(req.current) : [req.userTurn.content])]
    memoryTurns.push({ role: 'assistant', content: loop.answer, earlier, metadata: { model: loop.model, provider: req.provider.id, tools_used: loop.tools_used, ...req.answerMetadata?.(loop) } })
  }
  return { loop, memoryTurns }
}

export const ToolChoiceError = createError<[string, string]>('AGENT_ERR_TOOL_CHOICE', 'tool_choice names the tool "%s", which is not on offer; offered: %s.', 400)

/** A tool_choice that names a tool must name one on offer (agentd's or the client's). */
function checkToolChoice (req: ConversationRequest, tools: ToolSet | undefined): void {
  const choice = req.toolChoice
  if (choice === undefined || typeof choice === 'string') return
  const offered = [...(tools?.definitions ?? []), ...(req.clientTools ?? [])].map(d => d.name)
  if (!offered.includes(choice.name)) throw new ToolChoiceError(choice.name, offered.join(', ') || 'none')
}

/** Runs a stage inside every middleware, the first outermost. */
async function through (middleware: readonly ConversationMiddleware[], stage: ConversationStage, req: ConversationRequest, run: () => Promise<void>, i = 0): Promise<void> {
  if (i >= middleware.length) { await run(); return }
  await middleware[i](stage, req, async () => { await through(middleware, stage, req, run, i + 1) })
}
