// A TCP server on loopback that accepts connections and never answers: an upstream, a
// database or a tool server behind a dropping firewall, for connect and answer time
// limits. It is plain TCP, so it stays silent for any protocol (an HTTP server would
// answer a Redis or PostgreSQL client with a 400). `arrivals` stamps each connection
// (performance.now()); a client that gave up closes its socket, so a retry is a new one.
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export interface SilentServer {
  port: number
  /** `http://127.0.0.1:<port><path>` */
  url: (path?: string) => string
  arrivals: number[]
  close: () => Promise<void>
}

export async function startSilentServer (t?: { teardown: (fn: () => Promise<void>) => void }): Promise<SilentServer> {
  const sockets = new Set<net.Socket>()
  const arrivals: number[] = []
  const server = net.createServer(s => {
    arrivals.push(performance.now())
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
    s.on('error', () => undefined)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  let closed: Promise<void> | undefined
  const close = async (): Promise<void> => {
    closed ??= (async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>(resolve => server.close(() => { resolve() }))
    })()
    await closed
  }
  t?.teardown(close)
  return { port, url: (path = '') => `http://127.0.0.1:${port}${path}`, arrivals, close }
}
