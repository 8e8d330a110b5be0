// What the graph store's slice suites share: the embedder id their vectors carry, a fact
// with its claim hash, an id no store has.
import { claimHash } from '@agentd/sdk/kits/memory'
import type { NewFact } from '@agentd/sdk/contracts/memory-stores'

export const E = 'test-embedder'
export const NO_ID = '00000000-0000-0000-0000-000000000000'
export const fact = (claim: string, channel: string, extra: Partial<NewFact> = {}): NewFact => ({ claim, claim_hash: claimHash(claim), source: 'user_stated', channel, ...extra })
