// POST /api/agent/chat/stream: the chat flow as Server-Sent Events (SPEC.md "Events",
// DECISIONS.md). Input errors are ordinary JSON 4xx answers, because nothing has been
// streamed yet; once `start` is sent, a failure is an `error` event. A client that goes
// away aborts the provider call and pending tool calls; memory is stored after the
// stream has closed, off the request path.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { StreamSession } from '@agentd/sdk/kits/conversation'
import { runChat } from './chat-service.ts'
import { prepareChat, type ChatDeps } from './prepare.ts'
import type { LoopEvent } from '@agentd/sdk/kits/tools'
import type { ChatRequest } from './schema.ts'
import { requestTrace, type SseEvent } from '@agentd/sdk'
import { Type } from '@agentd/sdk/typebox'

/** SPEC.md: tool_result content in the stream is cut to 500 characters. */
export const TOOL_RESULT_EVENT_CHARS = 500

/** The events of the stream, in the order they come, for the OpenAPI document. */
export const CHAT_EVENTS: SseEvent[] = [
  { event: 'start', description: 'First: the task and the model that answers.', data: Type.Object({ task_id: Type.String(), model: Type.String() }) },
  { event: 'chunk', description: 'A piece of the answer (`content`), or of the model\'s reasoning (`thinking`, with `content` empty).', data: Type.Object({ content: Type.String(), thinking: Type.Optional(Type.String()) }) },
  { event: 'tool_call', description: 'The model calls a tool.', data: Type.Object({ tool: Type.String(), arguments: Type.Record(Type.String(), Type.Unknown()) }) },
  { event: 'tool_result', description: `The tool's answer, cut to ${TOOL_RESULT_EVENT_CHARS} characters.`, data: Type.Object({ tool: Type.String(), content: Type.String() }) },
  {
    event: 'done',
    description: 'Last, on success: the whole reasoning, the time taken and the session to continue.',
    data: Type.Object({ task_id: Type.String(), thinking: Type.Union([Type.String(), Type.Null()]), has_thinking: Type.Boolean(), total_time_ms: Type.Number(), session_id: Type.String() }),
  },
  { event: 'error', description: 'Last, on failure after `start`: the error body.', data: Type.Object({ error: Type.String(), code: Type.String(), statusCode: Type.Integer() }) },
]

export function streamEventOf (e: LoopEvent): { event: string, data: Record<string, unknown> } | undefined {
  switch (e.type) {
    case 'text': return { event: 'chunk', data: { content: e.text } }
    case 'thinking': return { event: 'chunk', data: { content: '', thinking: e.text } }
    case 'tool_call': return { event: 'tool_call', data: { tool: e.call.name, arguments: e.call.arguments } }
    case 'tool_result': return { event: 'tool_result', data: { tool: e.call.name, content: e.result.content.slice(0, TOOL_RESULT_EVENT_CHARS) } }
    default: return undefined
  }
}

export function chatStreamHandler (deps: ChatDeps) {
  return async function handler (request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const prep = prepareChat(deps, request.body as ChatRequest) // throws 4xx before any byte is sent
    const stream = new StreamSession(reply.raw)
    const sse = reply.sse
    const send = async (event: string, data: unknown): Promise<void> => {
      if (stream.signal.aborted || !sse.isConnected) return
      const written = sse.send({ event, data }).catch(() => undefined)
      // Only a write that waits for 'drain' can outlive the socket.
      if (reply.raw.writableNeedDrain) await Promise.race([written, stream.aborted])
      else await written
    }
    // The per-token path (chunk events, thousands a second across streams): one pre-formatted
    // write. Same wire format as sse.send (`event:` and one `data:` line of JSON, which never
    // holds a raw newline).
    const sendChunk = (data: unknown): Promise<void> | undefined => sse.isConnected ? stream.write(`event: chunk\ndata: ${JSON.stringify(data)}\n\n`) : undefined
    try {
      await send('start', { task_id: prep.task_id, model: prep.model })
      stream.heartbeat(deps.opts.heartbeat_ms)
      const outcome = await runChat(deps, prep, {
        stream: true,
        signal: stream.signal,
        trace: requestTrace(request),
        onEvent: (e) => {
          const ev = streamEventOf(e)
          if (ev === undefined) return undefined
          return ev.event === 'chunk' ? sendChunk(ev.data) : send(ev.event, ev.data)
        },
      })
      const r = outcome.response
      await send('done', { task_id: r.task_id, thinking: r.has_thinking ? r.thinking : null, has_thinking: r.has_thinking, total_time_ms: r.total_time_ms, session_id: r.session_id })
      stream.afterClose(() => { deps.memory.storeLater(prep.session_id, prep.body.channel, outcome.memoryTurns) })
    } catch (err) {
      await stream.fail(err, request.log, { task_id: prep.task_id }, async body => { await send('error', { error: body.error, code: body.code, statusCode: body.statusCode }) })
    } finally {
      stream.end()
    }
  }
}
