// A fake model server with a wire format of its own, for the third-party provider test
// (test/fixtures/third-party-provider): POST /generate {model, messages} answers
// `application/x-ndjson`, one {"text":"..."} line per piece, then
// {"done":true,"usage":{"in":N,"out":M}}; an error is an HTTP status with {"error":"..."};
// GET /health answers 200. Each request takes the next scripted reply; then `fallback`.
import { setTimeout as delay } from 'node:timers/promises'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type NdjsonReply =
  | { text: string, chunkSize?: number, delayMs?: number }
  | { status: number, error: string }
  | { hang: true }

export interface NdjsonRequest { body: { model?: string, messages?: Array<{ role: string, content: string }> }, aborted: boolean }

const sleep = async (ms: number): Promise<void> => { if (ms > 0) await delay(ms) }

export class FakeNdjson {
  readonly requests: NdjsonRequest[] = []
  readonly script: NdjsonReply[] = []
  fallback: (req: NdjsonRequest) => NdjsonReply = (req) => ({ text: `echo: ${req.body.messages?.at(-1)?.content ?? ''}` })
  url = ''
  readonly #server = http.createServer((req, res) => { void this.#handle(req, res) })
  readonly #sockets = new Set<Socket>()

  async start (): Promise<this> {
    this.#server.on('connection', (s) => { this.#sockets.add(s); s.once('close', () => this.#sockets.delete(s)) })
    await new Promise<void>(resolve => this.#server.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`
    return this
  }

  enqueue (...replies: NdjsonReply[]): this { this.script.push(...replies); return this }

  async close (): Promise<void> {
    for (const s of this.#sockets) s.destroy()
    await new Promise<void>(resolve => this.#server.close(() => { resolve() }))
  }

  async #handle (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = ''
    for await (const chunk of req) raw += String(chunk)
    if (req.method === 'GET' && req.url === '/health') { res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'); return }
    if (req.method !== 'POST' || req.url !== '/generate') { res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}'); return }
    const record: NdjsonRequest = { body: JSON.parse(raw === '' ? '{}' : raw) as NdjsonRequest['body'], aborted: false }
    this.requests.push(record)
    let finished = false
    res.once('close', () => { if (!finished) record.aborted = true })
    const reply = this.script.shift() ?? this.fallback(record)
    if ('hang' in reply) return
    if ('status' in reply) { res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: reply.error })); finished = true; return }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' })
    const size = reply.chunkSize ?? 4
    for (let i = 0; i < reply.text.length; i += size) {
      await sleep(reply.delayMs ?? 0)
      if (res.destroyed) return
      res.write(JSON.stringify({ text: reply.text.slice(i, i + size) }) + '\n')
    }
    res.end(JSON.stringify({ done: true, usage: { in: 5, out: Math.ceil(reply.text.length / size) } }) + '\n')
    finished = true
  }
}

export async function startFakeNdjson (t: { teardown: (fn: () => Promise<void>) => void }): Promise<FakeNdjson> {
  const fake = await new FakeNdjson().start()
  t.teardown(async () => { await fake.close() })
  return fake
}
