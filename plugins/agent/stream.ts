// POST /api/agent/run/stream: the agent run as Server-Sent Events, so a client watches the
// plan and the steps as they happen. Events: `plan` (the plan and, once chosen, nothing
// more), `step` (every other trace entry: strategy choice, model calls, thoughts),
// `tool` (a tool call and, as a second event, its result), then `answer` (the whole
// result, as POST /api/agent/run answers it) or `error`. Input errors are JSON 4xx
// answers, as nothing has been streamed yet. A client that goes away cancels the run.
// The chat stream (POST /api/agent/chat/stream) keeps exactly SPEC.md's six events; this
// route is a separate one.
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify'
import { Type, type TSchema } from '@agentd/sdk/typebox'
import type { TraceStep } from '@agentd/sdk/contracts/strategy'
import { ignoreUnknownFields, requestTrace, sseContent } from '@agentd/sdk'
import { StreamSession } from '@agentd/sdk/kits/conversation'
import type { AutoRuleT, RunConfig } from './options.ts'
import type { RunBodyT } from './routes.ts'
import { runAgent } from './run.ts'
import type { TaskTracker } from './tracker.ts'

/** Tool results in `tool` events are cut like the chat stream's tool_result (the answer event has them whole in its trace). */
export const TOOL_EVENT_CHARS = 500

/** The event a trace entry is streamed as. */
export function traceEvent (step: TraceStep): { event: 'plan' | 'step' | 'tool', data: Record<string, unknown> } {
  if (step.type === 'plan') return { event: 'plan', data: { steps: step.steps ?? [], source: step.source, content: step.content } }
  if (step.type === 'action') return { event: 'tool', data: { phase: 'call', tool: step.tool, arguments: step.arguments, step: step.step } }
  if (step.type === 'observation') return { event: 'tool', data: { phase: 'result', tool: step.tool, content: step.content.slice(0, TOOL_EVENT_CHARS), is_error: step.is_error === true, step: step.step } }
  return { event: 'step', data: step }
}

export interface StreamRouteDeps {
  RunBody: TSchema
  prepare: (body: RunBodyT) => { task: string, strategy: string, cfg: RunConfig }
  preHandler: preHandlerAsyncHookHandler
  autoRules: readonly AutoRuleT[]
  autoFallback: string
  tracker: TaskTracker
}

/** The stream's events, for the OpenAPI document. */
const RUN_EVENTS = [
  { event: 'plan', description: 'The plan, once made', data: Type.Unknown() },
  { event: 'step', description: 'A trace entry: the strategy chosen, a model call, a thought', data: Type.Unknown() },
  { event: 'tool', description: 'A tool call, then (a second event) its result', data: Type.Unknown() },
  { event: 'answer', description: 'The whole result, as POST /api/agent/run answers it; the last event', data: Type.Unknown() },
  { event: 'error', description: 'The run failed: the error body; the last event', data: Type.Unknown() },
]

export function registerStreamRoute (app: FastifyInstance, deps: StreamRouteDeps): void {
  app.post('/api/agent/run/stream', {
    preValidation: ignoreUnknownFields(deps.RunBody),
    preHandler: deps.preHandler,
    sse: { kind: 'manual', heartbeat: false },
    schema: {
      tags: ['agent'],
      summary: 'Full agent mode as Server-Sent Events: plan, step, tool, then answer | error',
      description: 'Input errors are JSON 4xx answers before the stream starts. `answer` carries what POST /api/agent/run returns; closing the stream cancels the run.',
      body: deps.RunBody,
      response: { 200: { description: 'The run as it happens', content: sseContent(RUN_EVENTS) } },
    },
  }, async (request, reply) => {
    const body = request.body as RunBodyT
    const prep = deps.prepare(body) // throws 4xx before any byte is sent
    const stream = new StreamSession(reply.raw)
    const sse = reply.sse
    // In order, one at a time: a trace entry is added synchronously, its write may wait for 'drain'.
    let queue: Promise<void> = Promise.resolve()
    let started = false
    const send = (event: string, data: unknown): Promise<void> => {
      // The heartbeat writes raw comment lines: only once the stream has its headers.
      if (!started) { started = true; stream.heartbeat(15_000) }
      queue = queue.then(async () => {
        if (stream.signal.aborted || !sse.isConnected) return
        const written = sse.send({ event, data }).catch(() => undefined)
        await Promise.race([written, stream.aborted])
      })
      return queue
    }
    try {
      const result = await runAgent(app, {
        ...prep,
        autoRules: deps.autoRules,
        autoFallback: deps.autoFallback,
        clientSignal: stream.signal,
        tracker: deps.tracker,
        traceContext: requestTrace(request),
        onTrace: (step) => { const ev = traceEvent(step); void send(ev.event, ev.data) },
      })
      if (body.include_trace === false) delete result.trace
      result.result = result.answer
      await send('answer', result)
    } catch (err) {
      // Refused before anything was streamed (a model no provider knows): an ordinary JSON error.
      if (!started) throw err
      await stream.fail(err, request.log, {}, async b => { await send('error', { error: b.error, code: b.code, statusCode: b.statusCode }) })
    } finally {
      await queue
      stream.end()
    }
  })
}
