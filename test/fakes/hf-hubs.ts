// Model hubs that fail the ways a real network does, on loopback, so no test ever
// reaches huggingface.co (and never starts a 600 MB download on a machine with internet).
import type { Test } from 'tap'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

/** A loopback URL nothing listens on: every connection is refused at once. */
export async function refusedHub (): Promise<string> {
  const server = net.createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise(resolve => server.close(resolve))
  return `http://127.0.0.1:${port}/`
}

/** A "hub" that accepts TCP connections and never says a word (the hang a firewall gives). */
export async function silentHub (t: Test): Promise<string> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer(sock => { sockets.add(sock); sock.on('error', () => undefined) })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { for (const s of sockets) s.destroy(); await new Promise(resolve => server.close(resolve)) })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
}
