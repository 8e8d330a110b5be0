// What every fake upstream on loopback shares, whatever wire format it speaks: a real HTTP
// server on 127.0.0.1, each request read and recorded (body parsed as JSON when it is,
// whether the client hung up before the answer ended), scripted replies taken in order
// with a fallback when the script is empty, and a close that does not wait for clients
// holding connections open. A fake adds its routes and its wire format (`answer`).
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'

export interface UpstreamRequest {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- whatever the client sent
  /** True when the client closed the connection before the reply ended. */
  aborted: boolean
  stream: boolean
  /** performance.now() when the request arrived: the gap between two attempts is the wait the client slept. */
  at: number
}

export const sleep = async (ms: number): Promise<void> => { if (ms > 0) await delay(ms) }

/** `s` in pieces of `n` characters (none for an empty string): the deltas a stream sends. */
export function splitEvery (s: string, n: number): string[] {
  const out: string[] = []
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n))
  return out
}

export abstract class FakeUpstream<Reply> {
  readonly server: http.Server
  readonly requests: UpstreamRequest[] = []
  readonly script: Array<Reply | ((req: UpstreamRequest) => Reply)> = []
  fallback: (req: UpstreamRequest) => Reply
  url = ''
  readonly #sockets = new Set<Socket>()

  constructor (fallback: (req: UpstreamRequest) => Reply) {
    this.fallback = fallback
    this.server = http.createServer((req, res) => { void this.#handle(req, res) })
    this.server.on('connection', (s) => { this.#sockets.add(s); s.once('close', () => this.#sockets.delete(s)) })
  }

  /** The base URL a client is given, from the server's origin (`http://127.0.0.1:<port>`). */
  protected abstract baseUrl (origin: string): string

  /** Answers one recorded request; calls `done` once the answer has ended (never, for a reply that hangs). */
  protected abstract answer (record: UpstreamRequest, res: http.ServerResponse, done: () => void): Promise<void>

  /** Starts listening on a free loopback port; `url` is then set. */
  async start (): Promise<this> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve))
    this.url = this.baseUrl(`http://127.0.0.1:${(this.server.address() as AddressInfo).port}`)
    return this
  }

  enqueue (...replies: Array<Reply | ((req: UpstreamRequest) => Reply)>): this { this.script.push(...replies); return this }

  /** The next scripted reply for this request, or the fallback's. */
  protected nextReply (record: UpstreamRequest): Reply {
    const next = this.script.shift() ?? this.fallback
    return typeof next === 'function' ? (next as (req: UpstreamRequest) => Reply)(record) : next
  }

  async close (): Promise<void> {
    for (const s of this.#sockets) s.destroy()
    await new Promise<void>(resolve => this.server.close(() => { resolve() }))
  }

  async #handle (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = ''
    for await (const chunk of req) raw += String(chunk)
    let body: unknown = {}
    try { body = raw === '' ? {} : JSON.parse(raw) } catch { body = raw }
    const path = (req.url ?? '/').split('?')[0]
    const record: UpstreamRequest = { method: req.method ?? 'GET', path, headers: req.headers, body, aborted: false, stream: (body as { stream?: boolean })?.stream === true, at: performance.now() }
    this.requests.push(record)
    let finished = false
    res.once('close', () => { if (!finished) record.aborted = true })
    await this.answer(record, res, () => { finished = true })
  }
}
