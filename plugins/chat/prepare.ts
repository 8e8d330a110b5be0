// The chat's request checked and resolved before any work starts (or any byte of a stream is
// sent): everything that can be the caller's mistake is a 4xx here. Shared by the JSON and
// the SSE endpoint.
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Provider } from '@agentd/sdk/contracts/provider'
import type { ChatOptions } from './options.ts'
import type { ChatRequest } from './schema.ts'
import type { SessionStore } from './sessions.ts'
import { shortId, type TaskTracker } from '@agentd/sdk/kits/tasks'
import { promptComposer, type ChatMemory } from '@agentd/sdk/kits/conversation'
import { ChatErrors } from './errors.ts'
import type { ToolFilter } from '@agentd/sdk/kits/tools'
import { modelResolver } from '@agentd/sdk/kits/provider'

export interface ChatDeps {
  app: FastifyInstance
  opts: ChatOptions
  sessions: SessionStore
  tasks: TaskTracker
  memory: ChatMemory
  /** AGENT_MAX_CHAT_LENGTH (10,000 characters), read when the plugin registers. */
  maxChatLength: number
}

export interface PreparedChat {
  body: ChatRequest
  /** From the model resolver: wrapped in the provider middleware (provider hooks, limits). */
  provider: Provider
  /** Model name as the provider knows it. */
  model: string
  session_id: string
  task_id: string
  temperature: number
  use_memory: boolean
  started: number
}

/** Checks everything that is the caller's mistake; throws 4xx errors before any work starts. */
export function prepareChat (deps: ChatDeps, body: ChatRequest): PreparedChat {
  const { app } = deps
  const started = performance.now()
  const limit = deps.maxChatLength
  if (body.message.length > limit) throw new ChatErrors.TOO_LONG(body.message.length, limit)
  const { provider, model } = modelResolver(app, 'The chat plugin').resolve(body.model)
  promptComposer(app, 'The chat plugin').checkProfile(body.profile_id) // 404 for an unknown profile
  const temperature = body.temperature ?? app.agentConfig.lookupNumber('llm_settings.default_temperature', undefined, 0.7)
  const memoryDefault = app.agentConfig.fromFile('preferences.enable_memory_by_default')
  return {
    body,
    provider,
    model,
    session_id: body.session_id ?? randomUUID(),
    task_id: shortId(),
    temperature,
    use_memory: body.use_memory ?? (typeof memoryDefault === 'boolean' ? memoryDefault : true),
    started,
  }
}

export function toolFilter (opts: ChatOptions, body: ChatRequest): ToolFilter {
  const allowedLists = [opts.allowed_tools, body.allowed_tools].filter((l): l is string[] => Array.isArray(l))
  const allowed = allowedLists.length === 0 ? null : allowedLists.reduce((a, b) => a.filter(n => b.includes(n)))
  const blocked = [...(opts.blocked_tools ?? []), ...(body.blocked_tools ?? [])]
  return { allowed, blocked }
}
