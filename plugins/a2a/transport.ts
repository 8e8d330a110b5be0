// A2A's JSON-RPC binding on a Fastify route: the SDK's transport handlers (1.0, and 0.3
// when the request says `A2A-Version: 0.3` or names no version, as the SDK's own Express
// binding decides) do the protocol; this file only moves bytes. A streamed answer is
// Server-Sent Events of JSON-RPC responses (the SDK's formatSSEEvent); an error before the
// first event is a plain JSON-RPC error, after it an `event: error`. An internal error's
// message is logged, not sent.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { A2A_VERSION_HEADER, SSE_HEADERS, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk'
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors'
import { JsonRpcTransportHandler, UnauthenticatedUser, defaultServerCallContextBuilder, validateVersion, type A2ARequestHandler } from '@a2a-js/sdk/server'
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server'
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3'

interface RpcError { code: number, message: string, data?: unknown }
type RpcAnswer = { jsonrpc: '2.0', id: unknown, error?: RpcError, result?: unknown }

const isStream = (v: unknown): v is AsyncIterable<unknown> => typeof (v as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function'

export class JsonRpcRoute {
  readonly #v1: JsonRpcTransportHandler
  readonly #legacy: LegacyJsonRpcTransportHandler

  constructor (readonly handler: A2ARequestHandler, readonly log: FastifyBaseLogger) {
    this.#v1 = new JsonRpcTransportHandler(handler)
    this.#legacy = new LegacyJsonRpcTransportHandler(handler)
  }

  #error (id: unknown, err: unknown, legacy: boolean): RpcAnswer {
    const mapped = (legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(err) : JsonRpcTransportHandler.mapToJSONRPCError(err)) as RpcError
    if (mapped.code === A2A_ERROR_CODE.INTERNAL_ERROR) {
      this.log.error({ err }, 'a2a: internal error')
      return { jsonrpc: '2.0', id, error: { code: mapped.code, message: 'Internal error; the server log has the details.' } }
    }
    return { jsonrpc: '2.0', id, error: mapped }
  }

  async handle (request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<void> {
    const version = request.headers[A2A_VERSION_HEADER.toLowerCase()]
    const requested = typeof version === 'string' && version !== '' ? version : undefined
    const legacy = (requested ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION
    const id = (body as { id?: unknown } | null)?.id ?? null
    let answer: unknown
    try {
      const context = defaultServerCallContextBuilder({ extensions: undefined, user: new UnauthenticatedUser(), headers: request.headers, requestedVersion: requested })
      validateVersion(context.requestedVersion, await this.handler.getAgentCard(), 'JSONRPC')
      answer = await (legacy ? this.#legacy : this.#v1).handle(body as Record<string, unknown>, context)
    } catch (err) {
      const e = this.#error(id, err, legacy)
      await reply.code(e.error?.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200).send(e)
      return
    }
    if (!isStream(answer)) { await reply.code(200).send(answer); return }
    await this.#stream(request, reply, answer, id, legacy)
  }

  async #stream (request: FastifyRequest, reply: FastifyReply, stream: AsyncIterable<unknown>, id: unknown, legacy: boolean): Promise<void> {
    const iterator = stream[Symbol.asyncIterator]()
    let first: IteratorResult<unknown>
    try {
      first = await iterator.next()
    } catch (err) {
      await reply.code(200).send(this.#error(id, err, legacy))
      return
    }
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, SSE_HEADERS)
    // The client going away ends the listening, not the task (tasks/cancel does that).
    const gone = new Promise<IteratorResult<unknown>>(resolve => { res.once('close', () => { resolve({ done: true, value: undefined }) }) })
    try {
      for (let next = first; next.done !== true && !res.destroyed; next = await Promise.race([iterator.next(), gone])) {
        res.write(formatSSEEvent(next.value))
      }
    } catch (err) {
      if (!res.destroyed) res.write(formatSSEErrorEvent(this.#error(id, err, legacy)))
    } finally {
      void iterator.return?.(undefined)
      res.end()
      request.log.debug({ id }, 'a2a: stream ended')
    }
  }
}
