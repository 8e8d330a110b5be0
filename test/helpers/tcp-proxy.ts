// A TCP proxy on loopback that a test can cut and restore: an outage of a real server
// (PostgreSQL, Redis) without stopping it, since other work on the machine uses it. Cut:
// every open connection is destroyed and the port refuses new ones (as a stopped server's
// would); restore: the same port accepts and forwards again.
import { createConnection, createServer, type Server, type Socket } from 'node:net'

export class TcpProxy {
  readonly port: number
  readonly #target: { host: string, port: number }
  #server: Server | undefined
  readonly #sockets = new Set<Socket>()

  private constructor (port: number, target: { host: string, port: number }) { this.port = port; this.#target = target }

  static async start (target: { host: string, port: number }): Promise<TcpProxy> {
    const probe = createServer()
    await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as { port: number }).port
    await new Promise<void>(resolve => probe.close(() => { resolve() }))
    const p = new TcpProxy(port, target)
    await p.restore()
    return p
  }

  get up (): boolean { return this.#server !== undefined }

  async restore (): Promise<void> {
    if (this.#server !== undefined) return
    const server = createServer(client => {
      const upstream = createConnection(this.#target)
      for (const s of [client, upstream]) { this.#sockets.add(s); s.on('close', () => { this.#sockets.delete(s) }); s.on('error', () => { client.destroy(); upstream.destroy() }) }
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(this.port, '127.0.0.1', () => { server.off('error', reject); resolve() }) })
    this.#server = server
  }

  async cut (): Promise<void> {
    const server = this.#server
    if (server === undefined) return
    this.#server = undefined
    const closed = new Promise<void>(resolve => server.close(() => { resolve() }))
    for (const s of this.#sockets) s.destroy()
    await closed
  }

  async close (): Promise<void> { await this.cut() }
}
