// A loopback port nobody listens on right now, for a server a test or bench starts in
// another process (one in this process listens on port 0 instead).
import { createServer } from 'node:net'

export async function freePort (): Promise<number> {
  const s = createServer()
  await new Promise<void>(resolve => s.listen(0, '127.0.0.1', resolve))
  const { port } = s.address() as { port: number }
  await new Promise(resolve => s.close(resolve))
  return port
}
