// POST /v1/chat/completions with `stream: true`: OpenAI's chunk format as Server-Sent
// Events (`data: {chat.completion.chunk}` lines, then `data: [DONE]`). Answer text goes in
// `delta.content`, reasoning in `delta.reasoning_content`, a client tool's calls in
// `delta.tool_calls`; with `stream_options.include_usage` one last chunk with no choices
// carries the usage. agentd's own tool rounds run
// server-side and show only as the text around them. Input errors are JSON 4xx answers
// before the stream starts; after that, a failure is a `data: {"error": {...}}` line
// (OpenAI's SDKs raise it) and the stream ends. A client that goes away aborts the
// provider call and pending tool calls.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { StreamSession } from '@agentd/sdk/kits/conversation'
import { requestTrace } from '@agentd/sdk'
import { runCompletion } from './service.ts'
import { prepareCompletion, type CompletionDeps } from './prepare.ts'
import { toWireToolCall } from './convert.ts'
import { toOpenAIError } from './errors.ts'
import type { CompletionRequestBody } from './schema.ts'
import type { LoopEvent } from '@agentd/sdk/kits/tools'

export function completionStreamHandler (deps: CompletionDeps) {
  return async function streamCompletion (request: FastifyRequest, reply: FastifyReply, body: CompletionRequestBody): Promise<void> {
    const prep = prepareCompletion(deps, body, request.headers) // throws 4xx before any byte is sent
    // Tokens come in bursts (one upstream read holds several deltas): corked for the rest of
    // the tick, so a burst leaves in one write, not one syscall per token.
    const stream = new StreamSession(reply.raw, { cork: true })
    const includeUsage = body.stream_options?.include_usage === true
    // Everything but the delta and finish_reason is the same on every chunk: built once.
    // `system_fingerprint`, `logprobs` and the other chunks' `usage: null` are optional in
    // OpenAI's chunk and left out: the per-token line is most of what a stream costs.
    // Every chunk, the usage chunk too, names the model the request resolved to (OpenAI's
    // chunks all carry one model; the upstream's own name for it comes only at the end).
    const model = `${prep.provider.id}/${prep.model}`
    const head = `data: {"id":${JSON.stringify(prep.id)},"object":"chat.completion.chunk","created":${prep.created},"model":${JSON.stringify(model)},"choices":[{"index":0,"delta":`
    const tail = ',"finish_reason":null}]}\n\n'
    const textHead = `${head}{"content":`
    const thinkingHead = `${head}{"reasoning_content":`
    const closeTail = `}${tail}`
    const write = (line: string): Promise<void> | undefined => stream.write(line)
    const delta = (d: string): Promise<void> | undefined => write(head + d + tail)
    try {
      reply.sse.sendHeaders()
      await delta('{"role":"assistant","content":""}')
      stream.heartbeat(deps.opts.heartbeat_ms)
      const outcome = await runCompletion(deps, prep, {
        stream: true,
        signal: stream.signal,
        trace: requestTrace(request),
        onEvent: (e: LoopEvent) => {
          if (e.type === 'text') return write(textHead + JSON.stringify(e.text) + closeTail)
          if (e.type === 'thinking') return write(thinkingHead + JSON.stringify(e.text) + closeTail)
          return undefined
        },
      })
      const calls = outcome.loop.client_tool_calls
      if (calls.length > 0) await delta(JSON.stringify({ tool_calls: calls.map((c, index) => ({ index, ...toWireToolCall(c) })) }))
      await write(`${head}{}${tail.replace('"finish_reason":null', `"finish_reason":${JSON.stringify(outcome.finish_reason)}`)}`)
      if (includeUsage) {
        const u = outcome.loop.usage
        await write(`data: ${JSON.stringify({ id: prep.id, object: 'chat.completion.chunk', created: prep.created, model, choices: [], usage: { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens } })}\n\n`)
      }
      await write('data: [DONE]\n\n')
      stream.afterClose(() => { deps.memory.storeLater(prep.conversation_id, prep.channel, outcome.memoryTurns) })
    } catch (err) {
      await stream.fail(err, request.log, { id: prep.id }, async errBody => { await write(`data: ${JSON.stringify(toOpenAIError(errBody))}\n\n`) })
    } finally {
      stream.end()
    }
  }
}
