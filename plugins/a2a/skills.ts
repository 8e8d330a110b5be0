// The three skills the card offers, each onto what agentd already has: `chat` is one turn
// of the conversation pipeline (the kit's runConversation, as /api/agent/chat and /v1 run
// it) with the context's history; `agent-run` a full agent run (the registry's agent
// runner: plan, strategy, tools); `translate` the registered translator.
import type { FastifyInstance } from 'fastify'
import type { Message } from '@agentd/sdk/contracts/provider'
import { modelResolver } from '@agentd/sdk/kits/provider'
import { runConversation, type ChatMemory } from '@agentd/sdk/kits/conversation'
import type { A2AOptions } from './options.ts'
import type { ContextStore } from './contexts.ts'
import type { SkillId, TurnInput } from './parts.ts'
import { A2AErrors } from './errors.ts'

export interface SkillDeps {
  app: FastifyInstance
  opts: A2AOptions
  contexts: ContextStore
  memory: () => ChatMemory
}

export interface SkillRun {
  contextId: string
  signal: AbortSignal
  /** Answer text as it arrives (chat streams it; the others send it whole). */
  onText: (text: string) => void
  /** X-API-Key / Authorization as the caller sent them (the translate skill calls the API with them). */
  credentials: Record<string, string>
}

type Skill = (deps: SkillDeps, input: TurnInput, run: SkillRun) => Promise<string>

const WHO = 'The a2a plugin'

const chat: Skill = async ({ app, opts, contexts, memory }, input, run) => {
  const { provider, model } = modelResolver(app, WHO).resolve(input.model)
  const memoryDefault = app.agentConfig.fromFile('preferences.enable_memory_by_default')
  const maxTokens = app.agentConfig.fromFile('llm_settings.default_max_tokens')
  const user: Message = { role: 'user', content: input.text }
  const mem = memory()
  const { loop, memoryTurns } = await runConversation({ app, memory: mem, who: WHO }, {
    provider,
    model,
    history: contexts.get(run.contextId),
    current: [user],
    conversation_id: run.contextId,
    channel: input.channel,
    use_memory: input.use_memory ?? (typeof memoryDefault === 'boolean' ? memoryDefault : true),
    recallText: input.text,
    userTurn: { content: input.text, first: false },
    answerMetadata: () => ({ via: 'a2a' }),
    storeEmptyAnswer: false,
    profile_id: input.profile_id,
    offerTools: opts.enable_tools,
    toolFilter: { allowed: opts.allowed_tools, blocked: opts.blocked_tools },
    maxToolRounds: opts.max_tool_rounds,
    toolTimeoutMs: opts.tool_timeout_ms,
    settings: {
      temperature: app.agentConfig.lookupNumber('llm_settings.default_temperature', undefined, 0.7),
      ...(typeof maxTokens === 'number' ? { max_tokens: maxTokens } : {}),
    },
    stream: true,
    signal: run.signal,
    onEvent: (e) => { if (e.type === 'text') run.onText(e.text) },
  })
  contexts.append(run.contextId, [user, ...loop.messages])
  mem.storeLater(run.contextId, input.channel, memoryTurns)
  return loop.answer
}

const agentRun: Skill = async ({ app }, input, run) => {
  const runner = app.registry.agentRunners.first()
  if (runner === undefined) throw new A2AErrors.NO_AGENT()
  const outcome = await runner.run({ task: input.text, strategy: input.strategy, model: input.model, signal: run.signal })
  if (outcome.status !== 'complete') throw new A2AErrors.RUN_FAILED(outcome.strategy, outcome.error?.error ?? outcome.status)
  run.onText(outcome.answer)
  return outcome.answer
}

// Through the public route (in process, with the caller's credentials), as the MCP server's
// tools are: code checks, source detection and its confidence rule are the API's own.
const translate: Skill = async ({ app }, input, run) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/tools/translate',
    headers: { ...run.credentials, 'content-type': 'application/json' },
    payload: JSON.stringify({ text: input.text, targetLanguage: input.target_language, ...(input.source_language === undefined ? {} : { sourceLanguage: input.source_language }) }),
    signal: run.signal,
  })
  const body = JSON.parse(res.body) as { translatedText?: string, error?: string }
  if (res.statusCode !== 200 || typeof body.translatedText !== 'string') throw new A2AErrors.TRANSLATION(res.statusCode, body.error ?? res.body.slice(0, 200))
  run.onText(body.translatedText)
  return body.translatedText
}

export const SKILL_RUNS: Readonly<Record<SkillId, Skill>> = { chat, 'agent-run': agentRun, translate }
