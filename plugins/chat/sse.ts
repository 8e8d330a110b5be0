// POST /api/agent/chat/stream: the chat flow as Server-Sent Events (SPEC.md "Events",
// DECISIONS.md). Input errors are ordinary JSON 4xx answers, because nothing has been
// streamed yet; once `start` is sent, a failure is an `error` event. A client that goes
// away aborts the provider call and pending tool calls; memory is stored after the
// stream has closed, off the request path.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { toErrorBody } from '@agentd/sdk'
import { prepareChat, runChat, type ChatDeps } from './chat-service.ts'
import type { LoopEvent } from '@agentd/sdk/kits/tools'
import type { ChatRequest } from './schema.ts'

/** SPEC.md: tool_result content in the stream is cut to 500 characters. */
export const TOOL_RESULT_EVENT_CHARS = 500

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
    const res = reply.raw
    const abort = new AbortController()
    const onClose = (): void => { if (!res.writableFinished) abort.abort(new Error('the client closed the stream')) }
    res.once('close', onClose)
    const sse = reply.sse
    // A write waiting for 'drain' on a socket that then closes never settles: never wait past the abort.
    const aborted = new Promise<void>(resolve => { abort.signal.addEventListener('abort', () => { resolve() }, { once: true }) })
    const send = async (event: string, data: unknown): Promise<void> => {
      if (abort.signal.aborted || !sse.isConnected) return
      const written = sse.send({ event, data }).catch(() => undefined)
      // Only a write that waits for 'drain' can outlive the socket.
      if (res.writableNeedDrain) await Promise.race([written, aborted])
      else await written
    }
    // The per-token path (chunk events, thousands a second across streams): one pre-formatted
    // write on the socket, and a promise only when the socket asks the loop to wait for
    // 'drain'. Same wire format as sse.send (`event:` and one `data:` line of JSON, which
    // never holds a raw newline).
    const sendChunk = (data: unknown): Promise<void> | undefined => {
      if (abort.signal.aborted || !sse.isConnected || res.writableEnded) return undefined
      if (res.write(`event: chunk\ndata: ${JSON.stringify(data)}\n\n`)) return undefined
      return Promise.race([new Promise<void>(resolve => { res.once('drain', resolve) }), aborted])
    }
    let heartbeat: NodeJS.Timeout | undefined
    try {
      await send('start', { task_id: prep.task_id, model: prep.model })
      // A comment line keeps proxies from closing a stream that waits on a slow model or tool.
      heartbeat = setInterval(() => { if (sse.isConnected && !res.writableEnded) res.write(': ping\n\n') }, deps.opts.heartbeat_ms)
      heartbeat.unref()
      const outcome = await runChat(deps, prep, {
        stream: true,
        signal: abort.signal,
        onEvent: (e) => {
          const ev = streamEventOf(e)
          if (ev === undefined) return undefined
          return ev.event === 'chunk' ? sendChunk(ev.data) : send(ev.event, ev.data)
        },
      })
      const r = outcome.response
      await send('done', { task_id: r.task_id, thinking: r.has_thinking ? r.thinking : null, has_thinking: r.has_thinking, total_time_ms: r.total_time_ms, session_id: r.session_id })
      const store = (): void => { deps.memory.storeLater(prep.session_id, prep.body.channel, outcome.memoryTurns) }
      if (res.destroyed || res.writableFinished) store()
      else res.once('close', store)
    } catch (err) {
      if (abort.signal.aborted) {
        request.log.debug({ task_id: prep.task_id }, 'chat stream cancelled by the client')
        return
      }
      const body = toErrorBody(err)
      if (body.statusCode >= 500) request.log.error({ err, task_id: prep.task_id }, 'chat stream failed')
      await send('error', { error: body.error, code: body.code, statusCode: body.statusCode })
    } finally {
      clearInterval(heartbeat)
      res.off('close', onClose)
    }
  }
}
