// The SDK's DefaultRequestHandler with agentd's checks in front of message/send and
// message/stream: everything that is the caller's mistake (no text, a part agentd cannot
// read, too long, an unknown skill, model, profile or strategy, a translation without a
// target) is A2A's invalid-params error (-32602) before a task exists; a capability that is
// not loaded is unsupported-operation (-32004). Both carry agentd's sentence.
import type { Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk'
import { RequestMalformedError, UnsupportedOperationError } from '@a2a-js/sdk/errors'
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server'
import type { FastifyInstance } from 'fastify'
import { modelResolver } from '@agentd/sdk/kits/provider'
import { promptComposer } from '@agentd/sdk/kits/conversation'
import { A2AErrors } from './errors.ts'
import { otherParts, readInput, SKILLS } from './parts.ts'

/** agentd's check of one incoming message; throws agentd's own error (with its statusCode). */
export function checkMessage (app: FastifyInstance, maxLength: number, message: Message | undefined): void {
  if (message === undefined) throw new A2AErrors.EMPTY()
  const input = readInput(message)
  const others = otherParts(message)
  if (others.length > 0) throw new A2AErrors.NOT_TEXT(others.join(', '))
  if (input.text.trim() === '') throw new A2AErrors.EMPTY()
  if (input.text.length > maxLength) throw new A2AErrors.TOO_LONG(input.text.length, maxLength)
  if (input.requestedSkill !== input.skill) throw new A2AErrors.UNKNOWN_SKILL(input.requestedSkill, SKILLS.join(', '))
  if (input.skill === 'translate' && input.target_language === undefined) throw new A2AErrors.NO_TARGET()
  if (input.skill === 'agent-run') {
    const runner = app.registry.agentRunners.first()
    if (runner === undefined) throw new A2AErrors.NO_AGENT()
    runner.check({ task: input.text, strategy: input.strategy, model: input.model })
  }
  if (input.skill === 'chat') {
    modelResolver(app, 'The a2a plugin').resolve(input.model)
    promptComposer(app, 'The a2a plugin').checkProfile(input.profile_id)
  }
}

/** agentd's error as A2A's: the caller's mistake (4xx) is invalid params, a missing capability unsupported. */
function asA2AError (err: unknown): unknown {
  const code = (err as { statusCode?: unknown }).statusCode
  if (typeof code !== 'number' || !(err instanceof Error)) return err
  if (code >= 400 && code < 500) return new RequestMalformedError(err.message)
  if (code === 503) return new UnsupportedOperationError(err.message)
  return err
}

export class AgentdRequestHandler extends DefaultRequestHandler {
  #check: (m: Message | undefined) => void = () => {}

  /** Set once the plugin has its settings (the constructor's arguments are the SDK's). */
  checkWith (check: (m: Message | undefined) => void): this { this.#check = check; return this }

  #checked (params: SendMessageRequest): void {
    try { this.#check(params.message) } catch (err) { throw asA2AError(err) }
  }

  override async sendMessage (params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    this.#checked(params)
    return await super.sendMessage(params, context)
  }

  override async * sendMessageStream (params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    this.#checked(params)
    yield * super.sendMessageStream(params, context)
  }
}
