// Ids of imported items that cannot keep their own: a name-based UUID (RFC 9562 version 5,
// SHA-1 over a namespace and a name), so importing the same file into the same channel
// twice gives the same ids, and the stores' own "an id already stored is returned as it is"
// keeps turns from being added twice.
import { createHash } from 'node:crypto'

/** agentd's namespace for memory imports (a fixed random UUID). */
const NAMESPACE = Buffer.from('5b0c7f1e8a6d4c2b9e3f1a7d6c5b4a39', 'hex')

export function nameUuid (name: string): string {
  const h = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest()
  h[6] = (h[6] & 0x0f) | 0x50
  h[8] = (h[8] & 0x3f) | 0x80
  const x = h.subarray(0, 16).toString('hex')
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`
}
